"""The service layer: every use case of the bot as plain data in and out (no Discord objects), one
module per use case, each a few functions over an explicit `context.Context` (the storage, the
workers, the renderer, the clock): opening and joining a game (`lobby`), who may press what
(`admission`), a move (`moves`, stored with its post by `commit`), the bot's own seats (`advance`),
the panel (`panel`), questions (`questions`, `describe`, `recap`, `export`, `hint`), taking a move
back (`undo`), leaving (`leaving`), settings (`settings`), absent players (`absence`), the clock
(`tick`, `reminders`), paused games (`resume`), a game's end (`ending`) and the server's history
(`archive`). See docs/architecture.md."""
