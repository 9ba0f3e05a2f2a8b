"""Examples for the OpenAPI document, taken from real answers of the API (a
run of ``tests/api/test_openapi_responses.py`` with
``LABELRENDER_EXAMPLES_OUT``), with the host written as ``serve``'s default.
That test also checks each one against its schema.
"""

from __future__ import annotations

from typing import Any

RAW_RENDER_REQUEST: Any = {
    "zpl": "^XA^PW400^LL200^FO20,20^A0N,40,40^FDHello^FS^XZ",
    "target_dpi": 203,
    "threshold": False,
}

FROM_DATA_REQUEST: Any = {
    "template_id": "tpl_shipping",
    "fields": {
        "ship_to_name": "GRACE HOPPER",
        "ship_to_postal_city": "ARLINGTON VA 22201",
        "tracking_number": "1Z999AA10123456784",
    },
    "external_ref": "order-1234",
}

SYNTHESIZE_REQUEST: Any = {
    "input_zpl": "^XA^PW812^LL406^FO30,20^A0N,30,30^FDSHIP "
    "TO:^FS^FO30,60^A0N,50,50^FDGRACE "
    "HOPPER^FS^FO30,130^A0N,40,40^FDARLINGTON VA "
    "22201^FS^FO30,200^BCN,100,Y,N,N^FD1Z999AA10123456784^FS^XZ",
    "hint_template_id": "tpl_shipping",
}

COMMIT_REQUEST: Any = {
    "name": "shipping",
    "body": "^XA^PW812^LL406^FO30,20^A0N,30,30^FDSHIP "
    "TO:^FS^FO30,60^A0N,50,50^FN1^FS^FO30,130^A0N,40,40^FN2^FS^FO30,200^BCN,100,Y,N,N^FN3^FS^XZ",
    "field_map": {"ship_to_name": 1, "ship_to_postal_city": 2, "tracking_number": 3},
    "values": {
        "ship_to_name": "GRACE HOPPER",
        "ship_to_postal_city": "ARLINGTON VA 22201",
        "tracking_number": "1Z999AA10123456784",
    },
    "width_dots": 812,
    "height_dots": 406,
    "source_dpi": 203,
}

WEBHOOK_REQUEST: Any = {"url": "https://hooks.example.com/hooks", "topics": ["label.rendered"]}

RAW_RENDER: Any = {
    "status": "ok",
    "url": "http://127.0.0.1:8080/v1/files/tenants/tnt_tvkj6h47awaqf74w2ueyurofky/labels/3b66e24971c9c29f625c22b086b69af214549693b94eb6ff657ca68874fe6f47.png?exp=1795451552&sig=cf9157ea4fa18063ca4a58442101b5adeadfd933899bc6911d5035dd6454ff8c",
    "cached": False,
    "content_hash": "3b66e24971c9c29f625c22b086b69af214549693b94eb6ff657ca68874fe6f47",
    "warnings": [],
}

FROM_DATA: Any = {
    "status": "ok",
    "content_hash": "02f78d927eb8955d53ee6d701538995dcb456ee524c2f231972bb53c1520ef2c",
    "url": "http://127.0.0.1:8080/v1/files/tenants/tnt_tvkj6h47awaqf74w2ueyurofky/labels/02f78d927eb8955d53ee6d701538995dcb456ee524c2f231972bb53c1520ef2c.png?exp=1795451552&sig=e6ca1cda09f038a8236bb60938c699c531cd4296eeb3139329fa98ae51141166",
    "cached": False,
    "template_id": "tpl_shipping",
    "template_version": 1,
    "warnings": [],
}

LABEL_LIST: Any = {
    "labels": [
        {
            "content_hash": "02f78d927eb8955d53ee6d701538995dcb456ee524c2f231972bb53c1520ef2c",
            "url": "http://127.0.0.1:8080/v1/files/tenants/tnt_tvkj6h47awaqf74w2ueyurofky/labels/02f78d927eb8955d53ee6d701538995dcb456ee524c2f231972bb53c1520ef2c.png?exp=1795451552&sig=e6ca1cda09f038a8236bb60938c699c531cd4296eeb3139329fa98ae51141166",
            "template_id": "tpl_shipping",
            "template_version": 1,
            "cached_at": "2026-11-22T16:32:32Z",
            "expires_at": "2026-11-23T16:32:32Z",
            "size_bytes": 12347,
        }
    ],
    "next_cursor": None,
}

SYNTHESIS: Any = {
    "status": "ok",
    "scope": "tenant",
    "tenant_id": "tnt_tvkj6h47awaqf74w2ueyurofky",
    "template_id": "tpl_shipping",
    "draft": {
        "name": "shipping",
        "width_dots": 812,
        "height_dots": 406,
        "source_dpi": 203,
        "body": "^XA^PW812^LL406^FO30,20^A0N,30,30^FDSHIP "
        "TO:^FS^FO30,60^A0N,50,50^FN1^FS^FO30,130^A0N,40,40^FN2^FS^FO30,200^BCN,100,Y,N,N^FN3^FS^XZ",
        "field_map": {"ship_to_name": 1, "ship_to_postal_city": 2, "tracking_number": 3},
        "values": {
            "ship_to_name": "GRACE HOPPER",
            "ship_to_postal_city": "ARLINGTON VA 22201",
            "tracking_number": "1Z999AA10123456784",
        },
    },
    "confidence_score": 0.891,
    "low_confidence": False,
    "confidence_components": {
        "parse_coverage": 1.0,
        "variable_certainty": 0.863,
        "naming_certainty": 0.85,
        "dimension_detection": 1.0,
        "round_trip": 1.0,
    },
    "field_confidence": {
        "ship_to_name": 0.8,
        "ship_to_postal_city": 0.8,
        "tracking_number": 0.95,
    },
    "warnings": [],
    "_synthesis_meta": {
        "schema_version": "1",
        "model": "labelrender-heuristic-1",
        "prompt_version": "rules-2026-11",
        "request_id": "req_beade3ec23c99a96ed4ba417",
    },
}

JOB_QUEUED: Any = {"job_id": "job_f43ad386afde12233e19c6a3", "state": "queued"}

TEMPLATE_LIST: Any = {
    "templates": [
        {
            "id": "tpl_shipping",
            "scope": "tenant",
            "name": "shipping",
            "latest_version": 1,
            "versions": [1],
            "field_names": ["ship_to_name", "ship_to_postal_city", "tracking_number"],
            "created_at": "2026-11-22T16:32:32Z",
            "updated_at": "2026-11-22T16:32:32Z",
        }
    ]
}

COMMITTED: Any = {
    "status": "ok",
    "template_id": "tpl_shipping",
    "version": 1,
    "scope": "tenant",
    "tenant_id": "tnt_tvkj6h47awaqf74w2ueyurofky",
    "field_names": ["ship_to_name", "ship_to_postal_city", "tracking_number"],
    "created_at": "2026-11-22T16:32:32Z",
}

TEMPLATE_DELETED: Any = {"status": "deleted", "template_id": "tpl_shipping"}

WHOAMI: Any = {
    "tenant_id": "tnt_tvkj6h47awaqf74w2ueyurofky",
    "key_prefix": "df91ee9d",
    "plan": {
        "name": "scale",
        "requests_per_minute": 1000,
        "concurrent_renders": 30,
        "syntheses_per_month": 500,
        "labels_per_month": 150000,
        "max_dpi": 600,
        "retention_days": 365,
        "active_keys": 50,
    },
    "overages_enabled": True,
}

USAGE: Any = {
    "period": "2026-11",
    "resets_at": "2026-12-01T00:00:00Z",
    "rate": {"limit": 1000, "remaining": 990, "reset_at": "2026-11-22T16:32:33Z"},
    "concurrency": {"in_flight": 0, "cap": 30},
    "syntheses": {"used": 2, "included": 500, "overage": 0},
    "labels": {"used": 3, "included": 150000, "overage": 0},
}

KEY_CREATED: Any = {
    "apiKey": "svc_live_e5b8225742f502b28868a8f9fe0d28a709fbe384bed0ec9a2117e1c3c15902f5",
    "key_prefix": "e5b82257",
    "label": "ci",
    "status": "active",
    "created_at": "2026-11-22T16:32:32Z",
}

KEY_LIST: Any = {
    "keys": [
        {
            "key_prefix": "df91ee9d",
            "label": "first",
            "status": "active",
            "created_at": "2026-11-22T16:32:32Z",
        },
        {
            "key_prefix": "e5b82257",
            "label": "ci",
            "status": "active",
            "created_at": "2026-11-22T16:32:32Z",
        },
    ]
}

KEY_REVOKED: Any = {"status": "revoked", "key_prefix": "e5b82257"}

WEBHOOK_CREATED: Any = {
    "status": "created",
    "id": "warehouse-1",
    "scope": "tenant",
    "version": 1,
    "url": "https://hooks.example.com/hooks",
    "topics": ["label.rendered"],
    "created_at": "2026-11-22T16:32:32Z",
    "updated_at": "2026-11-22T16:32:32Z",
    "signing_secret": "whsec_c39752e7d181d026520108a6ca2e07d37d170b7a2b216f1f",
}

WEBHOOK_UPDATED: Any = {
    "status": "updated",
    "id": "warehouse-1",
    "scope": "tenant",
    "version": 2,
    "url": "https://hooks.example.com/hooks",
    "topics": ["label.rendered"],
    "created_at": "2026-11-22T16:32:32Z",
    "updated_at": "2026-11-22T16:32:32Z",
}

WEBHOOK_LIST: Any = {
    "webhooks": [
        {
            "id": "warehouse-1",
            "scope": "tenant",
            "version": 2,
            "url": "https://hooks.example.com/hooks",
            "topics": ["label.rendered"],
            "created_at": "2026-11-22T16:32:32Z",
            "updated_at": "2026-11-22T16:32:32Z",
        }
    ]
}

WEBHOOK: Any = {
    "id": "warehouse-1",
    "scope": "tenant",
    "version": 2,
    "url": "https://hooks.example.com/hooks",
    "topics": ["label.rendered"],
    "created_at": "2026-11-22T16:32:32Z",
    "updated_at": "2026-11-22T16:32:32Z",
}

WEBHOOK_TEST: Any = {"status": "queued", "event_id": "evt_1795365152_4c30abc9"}

WEBHOOK_DELETED: Any = {"status": "deleted", "id": "warehouse-1"}

JOB: Any = {
    "job_id": "job_f43ad386afde12233e19c6a3",
    "state": "succeeded",
    "created_at": "2026-11-22T16:32:32Z",
    "finished_at": "2026-11-22T16:32:32Z",
    "result": {
        "status": "ok",
        "scope": "tenant",
        "tenant_id": "tnt_tvkj6h47awaqf74w2ueyurofky",
        "template_id": "tpl_shipping",
        "draft": {
            "name": "shipping",
            "width_dots": 812,
            "height_dots": 406,
            "source_dpi": 203,
            "body": "^XA^PW812^LL406^FO30,20^A0N,30,30^FDSHIP "
            "TO:^FS^FO30,60^A0N,50,50^FN1^FS^FO30,130^A0N,40,40^FN2^FS^FO30,200^BCN,100,Y,N,N^FN3^FS^XZ",
            "field_map": {"ship_to_name": 1, "ship_to_postal_city": 2, "tracking_number": 3},
            "values": {
                "ship_to_name": "GRACE HOPPER",
                "ship_to_postal_city": "ARLINGTON VA 22201",
                "tracking_number": "1Z999AA10123456784",
            },
        },
        "confidence_score": 0.891,
        "low_confidence": False,
        "confidence_components": {
            "parse_coverage": 1.0,
            "variable_certainty": 0.863,
            "naming_certainty": 0.85,
            "dimension_detection": 1.0,
            "round_trip": 1.0,
        },
        "field_confidence": {
            "ship_to_name": 0.8,
            "ship_to_postal_city": 0.8,
            "tracking_number": 0.95,
        },
        "warnings": [],
        "_synthesis_meta": {
            "schema_version": "1",
            "model": "labelrender-heuristic-1",
            "prompt_version": "rules-2026-11",
            "request_id": "req_beade3ec23c99a96ed4ba417",
        },
    },
    "error": None,
}

# The receiver answered 500 once, then 204 (the shape of worker.delivery's records).
DELIVERIES: Any = {
    "deliveries": [
        {
            "event_id": "evt_1795365152_4c30abc9",
            "attempt": 2,
            "status_code": 204,
            "ok": True,
            "error": None,
            "duration_ms": 41,
            "attempted_at": "2026-11-22T16:32:38Z",
            "next_attempt_at": None,
        },
        {
            "event_id": "evt_1795365152_4c30abc9",
            "attempt": 1,
            "status_code": 500,
            "ok": False,
            "error": None,
            "duration_ms": 38,
            "attempted_at": "2026-11-22T16:32:33Z",
            "next_attempt_at": "2026-11-22T16:32:38Z",
        },
    ]
}

LABEL_RENDERED: Any = {
    "event": "label.rendered",
    "event_id": "evt_1795365152_4c30abc9",
    "event_version": "1",
    "delivered_at": "2026-11-22T16:32:33Z",
    "tenant_id": "tnt_tvkj6h47awaqf74w2ueyurofky",
    "data": {
        "content_hash": FROM_DATA["content_hash"],
        "external_ref": "order-1234",
        "template_id": "tpl_shipping",
        "template_version": 1,
        "url": FROM_DATA["url"],
        "cached": False,
    },
}

GRAPHIC: Any = {
    "zpl": "^XA\n^PW16\n^LL4\n^FO0,0^GFA,8,8,2,3FFC3FFC3FFC3FFC^FS\n^XZ\n",
    "width": 16,
    "height": 4,
    "bytes_per_row": 2,
    "total_bytes": 8,
    "compression": "A",
    "output": "label",
    "source": {"format": "PNG", "width": 16, "height": 4, "pages": 1},
}

BATCH_REQUEST: Any = {
    "template_id": "tpl_shipping",
    "rows": [{"name": "Ada Lovelace", "city": "Oslo"}, {"name": "Alan Turing", "city": "Lima"}],
}

BATCH: Any = {
    "batch_id": "bat_k3v6q2xw7hn4sd5m2r7tqy3b6a",
    "state": "completed",
    "template_id": "tpl_shipping",
    "template_version": 1,
    "target_dpi": 203,
    "rows": 1000,
    "counts": {"done": 995, "rendered": 990, "cached": 5, "failed": 5, "pending": 0},
    "progress": 1.0,
    "errors": [{"row": 17, "kind": "MissingField", "message": "missing values for fields: city",
                "field": "city"}],
    "created_at": "2026-11-25T16:02:11Z",
    "finished_at": "2026-11-25T16:03:40Z",
    "pdf_url": "http://127.0.0.1:8080/v1/files/tenants/tnt_tvkj6h47awaqf74w2ueyurofky/batches/5d0e3f7c2b9a4e1f8c6d3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e.pdf?exp=1795451552&sig=e6ca1cda09f038a8236bb60938c699c531cd4296eeb3139329fa98ae51141166",
    "zip_url": None,
    "expires_at": "2026-11-26T16:03:40Z",
}

BATCH_COMPLETED: Any = {
    "event": "batch.completed",
    "event_id": "evt_1795365152_9d1e0f3a",
    "event_version": "1",
    "delivered_at": "2026-11-25T16:03:41Z",
    "tenant_id": "tnt_tvkj6h47awaqf74w2ueyurofky",
    "data": {"batch_id": BATCH["batch_id"], "template_id": "tpl_shipping",
             "template_version": 1, "rows": 1000, "done": 995, "cached": 5, "failed": 5,
             "url": BATCH["pdf_url"]},
}
