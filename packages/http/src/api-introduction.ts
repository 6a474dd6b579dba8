/**
 * The API's introduction in Markdown: the OpenAPI document's `info.description`, the opening of
 * `/docs`. Generated from docs/api-introduction.md (which the README links) by
 * `npm run docs:api-introduction`: edit the Markdown, not this file.
 */

/** The introduction: authentication, pagination, filters, errors, webhooks and how to verify them, OTP. */
export const API_INTRODUCTION: string = `Wasl is a multi-account customer relationship service: contacts, companies, deals, tickets,
invoices and products with custom properties, notes and links; WhatsApp template and
one-time-password sending; signed, retried webhooks. Every endpoint lives under \`/api\`, takes and
answers JSON, and acts in the account of its caller.

## Authentication

Integrations send an API token: \`Authorization: Bearer <id>|<secret>\`. A token is issued with
\`POST /api/tokens\` (its secret is shown that once) and carries abilities: permission names such
as \`deal-index\` or \`webhook-create\`, or \`*\` for all of the owner's. Each endpoint names the
permission it needs; a missing one is a 403. Programs read it from the operation's
\`x-wasl-permission\`: a permission name, \`{ "all": [...] }\` (every one of them) or
\`{ "any": [...] }\` (any one of them), where \`{kind}\` stands for the record kind in the singular
(\`/api/deals\` needs \`deal-index\`; an export's own kind for \`/api/exports/{id}\`). An operation
without it needs no permission.

Wasl's own web app logs in with \`POST /api/auth/login\` and then sends the HttpOnly
\`wasl_session\` cookie; a session request that changes state must also send
\`X-Requested-With: XMLHttpRequest\`. A token acts in the account it was made in; a session acts in
its user's current account, which \`PUT /api/me/current-account\` switches among the user's accounts
(\`GET /api/me/accounts\`).

## Lists and pagination

\`GET /api/{kind}\` (\`contacts\`, \`companies\`, \`deals\`, \`tickets\`, \`invoices\`, \`products\`), a
record's notes, a webhook's deliveries, your notifications and your API tokens answer one page at
a time: \`page\` (from 1) and \`per_page\` (1 to 100, 15 by default). The answer is Laravel's
paginator body: \`data\`, \`links\` (\`first\`, \`last\`, \`prev\`, \`next\`: the same query with another
page, \`null\` where there is none) and \`meta\` (\`current_page\`, \`last_page\`, \`per_page\`, \`total\`,
\`from\`, \`to\`, and numbered page \`links\`).

## Search, order and filters

Records lists also take \`search\` (a case-insensitive substring of the kind's name), \`order\`
(a property's internal_name, \`created_at\` or \`updated_at\`; \`created_at\` by default) and
\`direction\` (\`asc\` or \`desc\`, \`desc\` by default). \`complex_filters\` is a list of conditions that
must all hold, each \`{ "property", "operator", "value" }\` or \`{ "or": [conditions] }\`, sent in
bracket notation or as one URL-encoded JSON array:

\`\`\`
GET /api/deals?complex_filters[0][property]=amount&complex_filters[0][operator]=gt&complex_filters[0][value]=100
GET /api/deals?complex_filters=[{"property":"amount","operator":"between","value":[100,500]}]
\`\`\`

Operators: \`eq\`, \`neq\`, \`gt\`, \`gte\`, \`lt\`, \`lte\`, \`between\`, \`in\`, \`not_in\`, \`contains\`,
\`not_contains\`, \`starts_with\`, \`ends_with\`, \`is_empty\`, \`is_not_empty\`; at most 20 conditions.

## Errors

Errors answer \`{ "message": "..." }\` with the status that says what went wrong: 401 (no or bad
credentials), 402 (the plan, the OTP credit or the month's message allowance does not allow it),
403 (not allowed), 404 (no such
resource in your account: another account's is the same 404), 409 (a request with this
\`Idempotency-Key\` is still running), 429 (too many requests: wait the \`Retry-After\` seconds). Invalid
input is a 422 with every failing field, in dot notation:

\`\`\`json
{ "message": "The name.en field is required.", "errors": { "name.en": ["The name.en field is required."] } }
\`\`\`

Every answer of an authenticated request carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and
\`RateLimit-Reset\`. A write sent with an \`Idempotency-Key\` header (any 1 to 255 visible ASCII
characters, a UUID for instance) can be retried safely for 24 hours: the retry gets the first
answer back, with \`Idempotent-Replayed: true\`, and changes nothing. A retry is answered only to a
caller who may still make the request: a revoked token gets a 401, and a caller who has lost a
permission (or ability) the request needed gets the 403 a fresh request would.

## Webhooks

Register an \`https\` URL and the events you want with \`POST /api/account/webhooks\`; the answer
holds the webhook's 32-character \`secret\`. Prove you own the URL with
\`POST /api/account/webhooks/{id}/validate\`: Wasl POSTs \`{ "time", "event": "webhook-validation",
"challenge" }\` and your endpoint answers, within 10 seconds,
\`{ "signature": "sha256=" + hex HMAC-SHA256(secret, challenge) }\`. Then switch deliveries on with
\`PUT /api/account/webhooks/{id}/activate\` \`{ "is_active": true }\`.

Each delivery is a POST of \`{ "time", "event", <the record> }\`, retried when your endpoint does
not answer 2xx. Verify it before trusting it, over the raw body as received:

- \`X-Wasl-Signature\` is \`sha256=\` + hex HMAC-SHA256(secret, \`<X-Wasl-Timestamp>:<raw body>\`);
- or, with any [Standard Webhooks](https://www.standardwebhooks.com) library, the \`webhook-id\`,
  \`webhook-timestamp\` and \`webhook-signature\` headers, the key being \`whsec_\` + base64 of the
  secret's UTF-8 bytes.

Refuse a timestamp far from your clock, and skip a \`webhook-id\` (\`X-Wasl-Delivery\`) you have
already processed: a retry carries the same one.

## One-time passwords

With an API token that has the ability \`broadcast-send-otp\`, and OTP credits on the account,
\`POST /api/broadcasts/{id}/send-otp\` sends a code with one of your authentication templates to a
contact (\`contact_id\`) or a number (\`to\`). Without a \`code\`, Wasl makes the code, keeps only its
hash and answers a \`verification_id\`; check what the user typed with
\`POST /api/verifications/{id}/verify\` \`{ "code" }\`: 200 when right, 422 with
\`attempts_remaining\` when wrong (five tries), 410 once the verification is no longer live. With
your own \`code\`, Wasl only relays it. The API never returns a code.

## Operating

- \`GET /health/live\` and \`GET /health/ready\` need no credentials and answer only
  \`{"status":"ok"}\` (200) or \`{"status":"unavailable"}\` (503): ready means the database answers
  and is migrated, and, where the process runs the delivery worker, its loops are running.
- While the database cannot be reached (a restart, a failover), requests answer 503
  \`{"message":"The service is unavailable for a moment. Retry shortly."}\` with \`Retry-After\`,
  within seconds; retry a write with the same \`Idempotency-Key\` and it is written once.
- \`GET /metrics\` (outside this document) is a Prometheus scrape: requests by route and status with
  durations, the outbox and delivery backlog, attempts by outcome, event to first attempt latency,
  OTP sends by outcome. With \`WASL_METRICS_TOKEN\` set it asks for that bearer token; a scrape
  without it counts against \`WASL_RATE_LIMIT\` per client address (429 with \`Retry-After\` past it).
- With \`OTEL_EXPORTER_OTLP_ENDPOINT\` set, every request is traced over OTLP, with its use-case and
  SQL statements under it, and each webhook delivery attempt joins the trace of the request that
  caused its event; JSON log lines carry the trace id.

## Clients

This document is served at \`/api/openapi.json\` (OpenAPI 3.1). From TypeScript with Effect, use
the typed client of \`@wasl/http/client\`. Otherwise generate one: for instance types with
\`openapi-typescript\` and calls with \`openapi-fetch\`, giving it a \`querySerializer\` that sends
\`complex_filters\` as JSON (its own writes only one level of brackets).
`
