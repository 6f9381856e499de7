# La Città for Discord: the bot. Build: docker build -t citta-bot .
# Run:   docker run -d --name citta --env-file .env -v citta-data:/data citta-bot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    CITTA_DB=/data/citta.db

WORKDIR /app

# The package and its dependencies (discord.py, aiosqlite, pydantic, pillow).
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY render ./render
COPY bot ./bot
RUN pip install . \
    && useradd --create-home --uid 10001 citta \
    && mkdir -p /data \
    && chown citta:citta /data

# Run as a non-root user, from the volume: the database (and a relative CITTA_DB) lives there.
USER citta
WORKDIR /data
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
