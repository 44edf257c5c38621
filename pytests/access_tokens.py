"""Access tokens for the socket tests: the keys a test server is started with, and tokens made
as an integrator's backend makes them (HS256 with the standard library: a JWT is three base64url
parts and an HMAC)."""
import base64
import hashlib
import hmac
import json
import time

SECRET_BYTES = b"pagerd-e2e-secret-of-32-bytes!!!"
SECRET = base64.urlsafe_b64encode(SECRET_BYTES).rstrip(b"=").decode()
AUTH_TOKEN = "e2e-operator-token"
KEYS = json.dumps([{"kid": "e2e", "alg": "HS256", "secret": SECRET}])
# What a test server needs for access tokens: the keys, and authToken for the operator.
ENV = {"PAGERD_ACCESS_KEYS": KEYS, "PAGERD_AUTH_TOKEN": AUTH_TOKEN}


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def token(scope, sub="*", lifetime=600, aud="pagerd", exp=None, secret=SECRET_BYTES, kid="e2e"):
    """An HS256 token for `scope` on session `sub` (none when None), expiring `lifetime` seconds
    from now (or at `exp`)."""
    claims = {"aud": aud, "scope": scope, "exp": int(exp if exp is not None else time.time() + lifetime)}
    if sub is not None:
        claims["sub"] = sub
    signing = b64(json.dumps({"alg": "HS256", "kid": kid, "typ": "JWT"}).encode()) + "." + b64(json.dumps(claims).encode())
    return signing + "." + b64(hmac.new(secret, signing.encode(), hashlib.sha256).digest())


def bearer(value):
    return {"Authorization": f"Bearer {value}"}
