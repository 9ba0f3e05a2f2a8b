"""The data layer shared by api, worker and operator.

Only this package knows Redis key names (``keys``) and Lua scripts. Every
function that touches a tenant's data takes the tenant id, so one tenant's
data cannot be reached without naming it.
"""

from labelrender.store.apikeys import (
    ApiKey,
    CreatedKey,
    authenticate,
    create_key,
    list_keys,
    revoke_key,
)
from labelrender.store.errors import (
    InvalidValue,
    KeyCapReached,
    LastActiveKey,
    NotFound,
    OveragesNotAllowed,
    QuotaExceeded,
    StoreError,
    StoreUnavailable,
)
from labelrender.store.idempotency import Claim, abandon, claim, complete
from labelrender.store.limits import (
    Lease,
    RateDecision,
    Unit,
    UnitUsage,
    acquire_slot,
    check_rate,
    consume,
    in_flight,
    peek_rate,
    period,
    period_resets_at,
    read_usage,
    refund,
    release_slot,
    renew_slot,
)
from labelrender.store.plans import (
    BUILTIN_PLANS,
    Plan,
    delete_plan,
    get_plan,
    list_plans,
    plan_from_dict,
    put_plan,
)
from labelrender.store.redis_conn import connect, shutdown_server, socket_url
from labelrender.store.tenants import (
    Tenant,
    create_tenant,
    get_tenant,
    list_tenants,
    set_overages,
    set_plan,
)

__all__ = [
    "BUILTIN_PLANS", "ApiKey", "Claim", "CreatedKey", "InvalidValue", "KeyCapReached",
    "LastActiveKey", "Lease", "NotFound", "OveragesNotAllowed", "Plan", "QuotaExceeded",
    "RateDecision", "StoreError", "StoreUnavailable", "Tenant", "Unit", "UnitUsage",
    "abandon", "acquire_slot", "authenticate", "check_rate", "claim", "complete", "connect",
    "consume", "create_key", "create_tenant", "delete_plan", "get_plan", "get_tenant",
    "in_flight", "list_keys", "list_plans", "peek_rate", "period", "period_resets_at",
    "plan_from_dict", "put_plan", "read_usage", "refund", "release_slot", "renew_slot",
    "list_tenants", "revoke_key", "set_overages", "set_plan", "shutdown_server", "socket_url",
]
