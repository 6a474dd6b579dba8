/**
 * The migrations, in order. Add a file `NNNN_name.ts` exporting a default
 * `Effect<void, unknown, SqlClient>` and list it here under the key `NNNN_name`: ids are the
 * numeric prefix, applied once each, in id order, and never renumbered or edited once released.
 */
import { PgMigrator } from "@effect/sql-pg"
import _0001_init from "./0001_init.ts"
import _0002_accounts from "./0002_accounts.ts"
import _0003_outbox from "./0003_outbox.ts"
import _0004_records from "./0004_records.ts"
import _0005_properties from "./0005_properties.ts"
import _0006_webhooks from "./0006_webhooks.ts"
import _0007_deliveries from "./0007_deliveries.ts"
import _0008_messaging from "./0008_messaging.ts"
import _0009_otp_reservations from "./0009_otp_reservations.ts"
import _0010_idempotency from "./0010_idempotency.ts"
import _0011_retention from "./0011_retention.ts"
import _0012_rate_limits from "./0012_rate_limits.ts"
import _0013_recover from "./0013_recover.ts"
import _0014_trace_context from "./0014_trace_context.ts"
import _0015_imports from "./0015_imports.ts"
import _0016_exports from "./0016_exports.ts"
import _0017_cache_invalidation from "./0017_cache_invalidation.ts"
import _0018_io_retention from "./0018_io_retention.ts"
import _0019_reservation_retention from "./0019_reservation_retention.ts"
import _0020_current_user_cache from "./0020_current_user_cache.ts"
import _0021_idempotency_caller_checks from "./0021_idempotency_caller_checks.ts"
import _0022_import_turns from "./0022_import_turns.ts"
import _0023_export_turns from "./0023_export_turns.ts"
import _0024_two_way_messages from "./0024_two_way_messages.ts"
import _0025_whatsapp_inbox from "./0025_whatsapp_inbox.ts"
import _0026_conversations from "./0026_conversations.ts"
import _0027_message_status_holds from "./0027_message_status_holds.ts"
import _0028_two_factor from "./0028_two_factor.ts"
import _0029_status_hold_retention from "./0029_status_hold_retention.ts"
import _0030_members_and_invitations from "./0030_members_and_invitations.ts"
import _0032_account_manage from "./0032_account_manage.ts"
import _0033_email_links from "./0033_email_links.ts"
import _0034_template_reviews from "./0034_template_reviews.ts"
import _0036_message_allowance from "./0036_message_allowance.ts"
import _0037_sending_number_health from "./0037_sending_number_health.ts"
import _0038_message_arrival_order from "./0038_message_arrival_order.ts"
import _0047_pipelines from "./0047_pipelines.ts"
import _0048_webhook_tenant_keys from "./0048_webhook_tenant_keys.ts"
import _0049_invitation_retention from "./0049_invitation_retention.ts"
import _0050_saved_views from "./0050_saved_views.ts"
import _0051_campaigns from "./0051_campaigns.ts"
import _0052_company_links from "./0052_company_links.ts"
import _0053_record_trash from "./0053_record_trash.ts"
import _0054_property_history from "./0054_property_history.ts"
import _0055_campaign_send_tracking from "./0055_campaign_send_tracking.ts"

/**
 * Wasl's migrations, in order, for `@effect/sql-pg`'s `PgMigrator` (`runMigrations` and
 * `MigrationsLive` run them under the table `wasl_migrations`).
 */
export const migrations: PgMigrator.Loader = PgMigrator.fromRecord({
  "0001_init": _0001_init,
  "0002_accounts": _0002_accounts,
  "0003_outbox": _0003_outbox,
  "0004_records": _0004_records,
  "0005_properties": _0005_properties,
  "0006_webhooks": _0006_webhooks,
  "0007_deliveries": _0007_deliveries,
  "0008_messaging": _0008_messaging,
  "0009_otp_reservations": _0009_otp_reservations,
  "0010_idempotency": _0010_idempotency,
  "0011_retention": _0011_retention,
  "0012_rate_limits": _0012_rate_limits,
  "0013_recover": _0013_recover,
  "0014_trace_context": _0014_trace_context,
  "0015_imports": _0015_imports,
  "0016_exports": _0016_exports,
  "0017_cache_invalidation": _0017_cache_invalidation,
  "0018_io_retention": _0018_io_retention,
  "0019_reservation_retention": _0019_reservation_retention,
  "0020_current_user_cache": _0020_current_user_cache,
  "0021_idempotency_caller_checks": _0021_idempotency_caller_checks,
  "0022_import_turns": _0022_import_turns,
  "0023_export_turns": _0023_export_turns,
  "0024_two_way_messages": _0024_two_way_messages,
  "0025_whatsapp_inbox": _0025_whatsapp_inbox,
  "0026_conversations": _0026_conversations,
  "0027_message_status_holds": _0027_message_status_holds,
  "0028_two_factor": _0028_two_factor,
  "0029_status_hold_retention": _0029_status_hold_retention,
  "0030_members_and_invitations": _0030_members_and_invitations,
  "0032_account_manage": _0032_account_manage,
  "0033_email_links": _0033_email_links,
  "0034_template_reviews": _0034_template_reviews,
  "0036_message_allowance": _0036_message_allowance,
  "0037_sending_number_health": _0037_sending_number_health,
  "0038_message_arrival_order": _0038_message_arrival_order,
  "0047_pipelines": _0047_pipelines,
  "0048_webhook_tenant_keys": _0048_webhook_tenant_keys,
  "0049_invitation_retention": _0049_invitation_retention,
  "0050_saved_views": _0050_saved_views,
  "0051_campaigns": _0051_campaigns,
  "0052_company_links": _0052_company_links,
  "0053_record_trash": _0053_record_trash,
  "0054_property_history": _0054_property_history,
  "0055_campaign_send_tracking": _0055_campaign_send_tracking
})
