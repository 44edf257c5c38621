"""Fixtures shared by the socket (e2e) and browser tests."""
import pytest

from support import Pagerd


@pytest.fixture
def pagerd():
    server = Pagerd()
    yield server
    server.stop()


@pytest.fixture
def start_pagerd():
    started = []

    def start(extra_env=None, args=()):
        server = Pagerd(extra_env, args)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
