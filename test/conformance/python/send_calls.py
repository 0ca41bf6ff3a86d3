"""Sends the conformance calls through Segment's Python SDK (segment-analytics-python).

Usage: send_calls.py ENDPOINT WRITE_KEY USER_PREFIX

Sends identify, track, page, screen, group and alias for "<USER_PREFIX>-user", with the data
every conformance case uses (see node-sdks.spec.ts), gzipped as the SDK can, then flushes.
Exits non-zero when the SDK reports any error.
"""

import argparse
import sys
from datetime import datetime, timezone

from segment.analytics import Client


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("endpoint")
    parser.add_argument("write_key")
    parser.add_argument("user_prefix")
    args = parser.parse_args()

    errors = []
    client = Client(
        args.write_key,
        host=args.endpoint,
        gzip=True,
        on_error=lambda error, batch: errors.append(f"{error!r} ({len(batch)} message(s))"),
        max_retries=3,
        upload_size=20,
    )
    user_id = f"{args.user_prefix}-user"
    client.identify(user_id=user_id, traits={"name": "Ada", "plan": "pro"})
    client.track(
        user_id=user_id,
        event="Order Completed",
        properties={"revenue": 42.5},
        integrations={"All": False, "Webhooks": True},
    )
    client.page(
        user_id=user_id,
        name="Home",
        properties={"url": "https://example.com/", "title": "Home", "path": "/", "referrer": "https://example.org/"},
    )
    client.screen(user_id=user_id, name="Dashboard")
    client.group(user_id=user_id, group_id="g-1", traits={"name": "Acme"})
    client.alias(
        user_id=user_id,
        previous_id=f"{user_id}-anon",
        timestamp=datetime(2015, 1, 2, 10, 4, 5, tzinfo=timezone.utc),
    )
    client.flush()
    client.shutdown()

    if errors:
        print("segment-analytics-python reported errors:\n" + "\n".join(errors), file=sys.stderr)
        return 1
    print(f"sent 6 calls for {user_id}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
