# La Città for Discord: the bot. Build: docker build -t citta-bot .
# Run:   docker run -d --name citta --env-file .env -v citta-data:/data citta-bot
# Stop:  docker stop citta   (SIGTERM: the bot closes cleanly, logs "Stopped." and exits 0)

# Stage 1: install the package (engine, render, bot, i18n) and its dependencies (discord.py,
# aiosqlite, asyncpg, pydantic, pillow, babel…) under /install. The source, build/ and *.egg-info stay here.
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY render ./render
COPY bot ./bot
COPY i18n ./i18n
RUN pip install --prefix=/install .

# Stage 2: the image that runs: the installed packages, a non-root user and the /data volume.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    CITTA_DB=/data/citta.db
COPY --from=build /install /usr/local
RUN useradd --create-home --uid 10001 citta \
    && mkdir -p /data \
    && chown citta:citta /data

# Run as a non-root user, from the volume: the database (and a relative CITTA_DB) lives there.
# A bind-mounted /data must be writable by uid 10001; otherwise the bot says so and exits 2.
USER citta
WORKDIR /data
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
