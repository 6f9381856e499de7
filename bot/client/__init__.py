"""The Discord side: the discord.py client (`bot`: `CittaBot`), the slash commands (`commands`), the
one door every press of a component passes and what each kind does (`door`, `components`), answering
interactions (`replies`), messages as Discord calls (`layout`, `mentions`), sending the outbox
(`sender`), and running the bot (`startup`). It only turns interactions into service calls and
results into messages; it imports the service, never the storage."""
