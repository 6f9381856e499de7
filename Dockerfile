# La Città for Discord: the bot. Build: docker build -t citta-bot .
# Run:   docker run -d --name citta --env-file .env -v citta-data:/data citta-bot
# Stop:  docker stop citta   (SIGTERM: the bot closes cleanly, logs "Stopped." and exits 0)

# Stage 1: a virtual environment at /opt/citta with exactly the versions of requirements.lock,
# each checked against its hash (--require-hashes; --no-deps: nothing is resolved anew, nothing
# beyond the lock is installed), then the package itself (engine, render, bot, i18n), built with
# the lock's setuptools and no index. Renew the lock: see docs/deploy.md (Reproducible images).
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/citta
COPY requirements.lock /tmp/requirements.lock
RUN /opt/citta/bin/pip install --require-hashes --no-deps --only-binary=:all: -r /tmp/requirements.lock
WORKDIR /src
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY render ./render
COPY bot ./bot
COPY i18n ./i18n
RUN /opt/citta/bin/pip install --no-deps --no-index --no-build-isolation . \
    && /opt/citta/bin/pip check

# Stage 2: the image that runs: the virtual environment, a non-root user and the /data volume.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PATH=/opt/citta/bin:$PATH \
    CITTA_DB=/data/citta.db \
    CITTA_WEB_PORT=8080 \
    CITTA_WEB_HOST=0.0.0.0
COPY --from=build /opt/citta /opt/citta
RUN useradd --create-home --uid 10001 citta \
    && mkdir -p /data \
    && chown citta:citta /data

# The web server (/healthz, /readyz, /metrics; docs/deploy.md) listens on 8080 on every interface
# of the container (CITTA_WEB_HOST=0.0.0.0: a reverse proxy or Prometheus in the same compose
# network reaches it; no port is published unless `docker run -p` asks). CITTA_WEB_PORT= (empty)
# turns it off, and with it the health check (which then reports healthy: nothing to ask).
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["python", "-m", "bot.web.check"]

# Run as a non-root user, from the volume: the database (and a relative CITTA_DB) lives there.
# A bind-mounted /data must be writable by uid 10001; otherwise the bot says so and exits 2.
USER citta
WORKDIR /data
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
