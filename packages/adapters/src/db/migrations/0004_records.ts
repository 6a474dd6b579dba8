/**
 * 0004: records: the six kinds, their custom values, exact totals, links and
 * notes, laid out for a million records per account with lists that filter,
 * search and order on any property and report an exact total.
 *
 * ## One table per kind, typed columns for the built-ins
 *
 * `contacts`, `companies`, `deals`, `tickets`, `invoices`, `products`: `(account_id, id)` is the
 * primary key (ids are the 24-hex record ids), each built-in property of the kind is a typed
 * column (text; `double precision` for numbers; `timestamptz` for datetimes; `date` for dates),
 * and `custom jsonb` holds the custom values *for reading* (keyed by the custom property's id, so
 * a deleted property leaves nothing that could be misread). "No value" is NULL: the adapter never
 * stores "" or [].
 *
 * - Numbers are `double precision`, not `numeric`: values arrive and leave as JSON numbers
 *   (IEEE doubles) and the filter language compares them as such, so `float8` gives exactly the
 *   evaluator's semantics with 8-byte fixed-width keys; `numeric` would store the decimal text of
 *   a double and add nothing but slower comparisons.
 * - Derived values: contact `fullname` is a stored generated column (first, middle, last, those
 *   with a value, joined by single spaces); ticket `contacts_count` / `deals_count` are counters
 *   kept by triggers on the link tables (cascaded deletes included); contact `deal_ids` is read
 *   from `deal_contacts`.
 * - Indexes: `(account_id, created_at, id)`, `(account_id, updated_at, id)` and one
 *   `(account_id, <key>, id)` per built-in except prose (`textarea`) and `image`: it serves both
 *   ordering (a top-N page is an index walk) and the equality/range filters of that column. The
 *   key of a text column is `left(lower(col), 255) COLLATE "C"`: case-insensitive, code-point
 *   order, and bounded so that a 65,535-character value never exceeds the B-tree row limit
 *   (ordering compares the first 255 characters, then `id`). Built-in single_selects (deal
 *   stage, ticket category and source, invoice status) hold one of their option names (CHECK),
 *   lowercase identifiers, in a `COLLATE "C"` column compared and indexed as is. Deals also get
 *   `(account_id, deal_stage, amount)`, the pipeline view (deals of a stage over an amount), so a
 *   stage-and-amount filter is one index range, counted from the index alone.
 *   The price is on writes: a record touches every index of its table (25 on contacts, 7–11 on
 *   the other kinds, primary key and search included).
 * - Search (a case-insensitive substring of the kind's name property): a trigram GIN index (`pg_trgm`) on `lower(<name column>)`; on
 *   contacts on a stored generated column `search` = lower(fullname ⏎ email ⏎ phone ⏎
 *   whatsapp_number). These GIN indexes cannot lead with `account_id`: that needs the
 *   `btree_gin` extension, which the embedded server (PGlite) is not started with. They are the
 *   only record indexes that do not; the query still filters on `account_id` (the bitmap of
 *   trigram matches is intersected with the account's rows). Adding `btree_gin` to the embedded
 *   extensions would allow `(account_id, lower(name) gin_trgm_ops)`.
 *
 * ## Custom values: a typed EAV side table
 *
 * `record_values (account_id, record_id, property_id, kind, num | txt | ts | bool)`: one row per
 * record and custom property with a value, in the column of its type, and
 * `record_value_elements (…, elem)`: one row per element of a multi_select. Indexes, partial per
 * type, all plain columns: `(account_id, property_id, num, record_id)`, `(account_id,
 * property_id, txt, record_id)`, `(account_id, property_id, ts, record_id)`, `(account_id,
 * property_id, bool, record_id)`, `(account_id, property_id, elem, record_id)`. A condition on a
 * custom property is a semi-join whose inner side is one range of one of those indexes (an
 * index-only scan); ordering on a custom property walks its index in order and joins the
 * records by primary key; presence is a primary-key probe. Filtering and ordering stay
 * index-driven at a million records without any per-account DDL. The property id implies the
 * kind (ids are unique), so `kind` is a plain column, not part of the keys.
 *
 * Text is stored folded with `lower()` (every text comparison is case-insensitive): `txt` holds
 * the first 255 characters (the sort key, short enough for any B-tree row), `txt_long` the whole
 * folded value when it is longer (else NULL). A multi_select's `txt` is its canonical sort key
 * (its folded elements, sorted, joined by U+0001), so it orders like a sorted list. Date values
 * are stored in `ts` at UTC midnight. Weighed against:
 * - `custom jsonb` + GIN (`jsonb_path_ops`): containment only — no ranges, substrings or order;
 * - expression indexes per (account, property) on the jsonb: DDL per custom property and
 *   account, thousands of indexes, and locks on the hot table at property creation;
 * - fixed typed "slot" columns (`num_1 … num_20`, …) mapped per account: a hard cap on custom
 *   properties, slot recycling on delete/type change, and an index per slot for every account
 *   whether used or not.
 * The price of the EAV table is one extra row (and index entries) per custom value written, the
 * adapter keeping it in step with `custom` in the same transaction, and planner estimates that
 * mix every property's values in one histogram (a large match count can be misjudged).
 *
 * ## Exact totals
 *
 * `record_counts (account_id, kind, slot, total)`: the number of records of a kind in an account
 * is `sum(total)` over at most 16 slots. Statement-level triggers with transition tables on
 * every kind table add and subtract, in the writing transaction, so the counter is exact by
 * construction whatever writes the rows (a bulk `INSERT … SELECT` too). A transaction writes the
 * slot of its transaction id (mod 16): concurrent writers of one account rarely wait on the same
 * counter row, and one transaction never holds two slots of a kind (no lock-order deadlock
 * between two of them). Filtered or searched lists count with `count(*)`.
 *
 * ## Links and notes
 *
 * `deal_contacts`, `ticket_contacts`, `ticket_deals`: `(account_id, a, b)` primary key, a reverse
 * index `(account_id, b, a)`, and composite foreign keys to both records carrying the account,
 * so a link across accounts cannot exist and deleting a record deletes its links. `notes`
 * `(account_id, id)` with `(account_id, object_type, record_id, created_at, id)` for a record's
 * notes; the adapter deletes a record's notes and custom values with it (they are polymorphic
 * over the kinds, so no foreign key can).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

type Index = "key" | "text" | false

interface Column {
  readonly name: string
  readonly type: string
  readonly index: Index
}

interface Kind {
  readonly kind: string
  readonly table: string
  readonly columns: ReadonlyArray<Column>
  readonly extra?: string
  readonly search: string
}

const text = (name: string, index: Index = "text"): Column => ({ name, type: "text", index })
/** A built-in single_select: one of its option names (lowercase identifiers), compared as is. */
const select = (name: string, options: ReadonlyArray<string>): Column => ({
  name,
  type: `text COLLATE "C" CHECK (${name} IN (${options.map((o) => `'${o}'`).join(", ")}))`,
  index: "key"
})
const num = (name: string): Column => ({ name, type: "double precision", index: "key" })
const instant = (name: string): Column => ({ name, type: "timestamptz", index: "key" })

const FULLNAME =
  `nullif(substr(coalesce(' ' || firstname, '') || coalesce(' ' || middlename, '') || coalesce(' ' || lastname, ''), 2), '')`

const KINDS: ReadonlyArray<Kind> = [
  {
    kind: "contact",
    table: "contacts",
    columns: [
      text("firstname"),
      text("lastname"),
      text("middlename"),
      { name: "fullname", type: `text GENERATED ALWAYS AS (${FULLNAME}) STORED`, index: "text" },
      text("email"),
      text("phone"),
      instant("birthdate"),
      text("gender"),
      text("languages"),
      num("annual_revenue"),
      text("preferred_language"),
      num("timezone"),
      text("relation_stage"),
      text("original_source"),
      text("original_source_drill_down_1"),
      num("created_by"),
      text("image", false),
      text("whatsapp_number"),
      instant("first_received_message_at"),
      instant("last_received_message_at"),
      instant("first_whatsapp_message_received_at"),
      instant("last_whatsapp_message_received_at"),
      {
        name: "search",
        type: `text GENERATED ALWAYS AS (lower(coalesce(${FULLNAME}, '') || E'\\n' || coalesce(email, '') || E'\\n' ||
          coalesce(phone, '') || E'\\n' || coalesce(whatsapp_number, ''))) STORED`,
        index: false
      }
    ],
    search: "search"
  },
  {
    kind: "company",
    table: "companies",
    columns: [
      text("name"),
      text("domain"),
      text("industry"),
      text("phone"),
      text("city"),
      text("country"),
      num("annual_revenue")
    ],
    search: "lower(name)"
  },
  {
    kind: "deal",
    table: "deals",
    columns: [
      text("deal_name"),
      num("amount"),
      select("deal_stage", [
        "appointment_scheduled",
        "qualified_to_buy",
        "presentation_scheduled",
        "decision_maker_bought_in",
        "contract_sent",
        "closed_won",
        "closed_lost"
      ]),
      instant("close_date"),
      num("forecast_amount"),
      text("next_steps", false)
    ],
    extra: "CREATE INDEX deals_stage_amount ON deals (account_id, deal_stage, amount)",
    search: "lower(deal_name)"
  },
  {
    kind: "ticket",
    table: "tickets",
    columns: [
      text("ticket_name"),
      text("description", false),
      select("category", ["general_inquiry", "billing_issue", "technical_issue", "feature_request"]),
      select("source", ["source_manual", "source_email", "source_chat", "source_phone", "source_form"]),
      { name: "contacts_count", type: "integer NOT NULL DEFAULT 0 CHECK (contacts_count >= 0)", index: "key" },
      { name: "deals_count", type: "integer NOT NULL DEFAULT 0 CHECK (deals_count >= 0)", index: "key" }
    ],
    search: "lower(ticket_name)"
  },
  {
    kind: "invoice",
    table: "invoices",
    columns: [
      text("invoice_number"),
      num("amount"),
      text("currency"),
      select("status", ["draft", "sent", "paid", "void"]),
      { name: "due_date", type: "date", index: "key" }
    ],
    search: "lower(invoice_number)"
  },
  {
    kind: "product",
    table: "products",
    columns: [text("name"), num("price"), text("sku"), text("description", false)],
    search: "lower(name)"
  }
]

const KIND_CHECK = `kind IN (${KINDS.map((k) => `'${k.kind}'`).join(", ")})`

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const run = (statement: string) => sql.unsafe(statement).raw

  // ---------------------------------------------------------------------------------------------
  // Exact totals: the counter table and the triggers that keep it
  // ---------------------------------------------------------------------------------------------

  yield* run(`
    CREATE TABLE record_counts (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (${KIND_CHECK}),
      slot smallint NOT NULL CHECK (slot BETWEEN 0 AND 15),
      total bigint NOT NULL,
      PRIMARY KEY (account_id, kind, slot)
    )
  `)

  // TG_ARGV[0]: the kind. Transition tables make one upsert per statement and account, however
  // many rows it wrote. A delete cascading from its account skips the upsert: the account (and
  // with it the counter) is going away, and a new counter row would reference a deleted account.
  yield* run(`
    CREATE FUNCTION record_counts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO record_counts AS c (account_id, kind, slot, total)
      SELECT n.account_id, TG_ARGV[0], (txid_current() % 16)::smallint, count(*)
      FROM new_rows n GROUP BY n.account_id
      ON CONFLICT (account_id, kind, slot) DO UPDATE SET total = c.total + EXCLUDED.total;
      RETURN NULL;
    END
    $$
  `)
  yield* run(`
    CREATE FUNCTION record_counts_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO record_counts AS c (account_id, kind, slot, total)
      SELECT o.account_id, TG_ARGV[0], (txid_current() % 16)::smallint, -count(*)
      FROM old_rows o
      WHERE EXISTS (SELECT 1 FROM accounts a WHERE a.id = o.account_id)
      GROUP BY o.account_id
      ON CONFLICT (account_id, kind, slot) DO UPDATE SET total = c.total + EXCLUDED.total;
      RETURN NULL;
    END
    $$
  `)

  // ---------------------------------------------------------------------------------------------
  // The kinds
  // ---------------------------------------------------------------------------------------------

  for (const k of KINDS) {
    const columns = k.columns.map((c) => `${c.name} ${c.type},`).join("\n      ")
    yield* run(`
      CREATE TABLE ${k.table} (
        account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        id text NOT NULL CHECK (id ~ '^[0-9a-f]{24}$'),
        ${columns}
        custom jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(custom) = 'object'),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (account_id, id)
      )
    `)
    yield* run(`CREATE INDEX ${k.table}_created_at ON ${k.table} (account_id, created_at, id)`)
    yield* run(`CREATE INDEX ${k.table}_updated_at ON ${k.table} (account_id, updated_at, id)`)
    for (const c of k.columns) {
      if (c.index === false) continue
      const key = c.index === "text" ? `(left(lower(${c.name}), 255) COLLATE "C")` : c.name
      yield* run(`CREATE INDEX ${k.table}_${c.name} ON ${k.table} (account_id, ${key}, id)`)
    }
    yield* run(`CREATE INDEX ${k.table}_search ON ${k.table} USING gin ((${k.search}) gin_trgm_ops)`)
    if (k.extra !== undefined) yield* run(k.extra)
    yield* run(`
      CREATE TRIGGER ${k.table}_counted_insert AFTER INSERT ON ${k.table}
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION record_counts_inserted('${k.kind}')
    `)
    yield* run(`
      CREATE TRIGGER ${k.table}_counted_delete AFTER DELETE ON ${k.table}
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION record_counts_deleted('${k.kind}')
    `)
  }

  // ---------------------------------------------------------------------------------------------
  // Custom values
  // ---------------------------------------------------------------------------------------------

  yield* run(`
    CREATE TABLE record_values (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      record_id text NOT NULL,
      property_id text NOT NULL CHECK (property_id ~ '^[0-9a-f]{24}$'),
      kind text NOT NULL CHECK (${KIND_CHECK}),
      num double precision,
      txt text COLLATE "C",
      txt_long text COLLATE "C",
      ts timestamptz,
      bool boolean,
      CHECK (num_nonnulls(num, txt, ts, bool) = 1),
      CHECK (txt_long IS NULL OR (char_length(txt) = 255 AND char_length(txt_long) > 255)),
      PRIMARY KEY (account_id, record_id, property_id)
    )
  `)
  yield* run(`CREATE INDEX record_values_num ON record_values (account_id, property_id, num, record_id) WHERE num IS NOT NULL`)
  yield* run(`CREATE INDEX record_values_txt ON record_values (account_id, property_id, txt, record_id) WHERE txt IS NOT NULL`)
  yield* run(`CREATE INDEX record_values_ts ON record_values (account_id, property_id, ts, record_id) WHERE ts IS NOT NULL`)
  yield* run(
    `CREATE INDEX record_values_bool ON record_values (account_id, property_id, bool, record_id) WHERE bool IS NOT NULL`
  )

  yield* run(`
    CREATE TABLE record_value_elements (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      record_id text NOT NULL,
      property_id text NOT NULL CHECK (property_id ~ '^[0-9a-f]{24}$'),
      elem text COLLATE "C" NOT NULL,
      kind text NOT NULL CHECK (${KIND_CHECK}),
      PRIMARY KEY (account_id, record_id, property_id, elem)
    )
  `)
  yield* run(
    `CREATE INDEX record_value_elements_elem ON record_value_elements (account_id, property_id, elem, record_id)`
  )

  // ---------------------------------------------------------------------------------------------
  // Links
  // ---------------------------------------------------------------------------------------------

  const links = [
    { table: "deal_contacts", a: ["deal_id", "deals"], b: ["contact_id", "contacts"] },
    { table: "ticket_contacts", a: ["ticket_id", "tickets"], b: ["contact_id", "contacts"] },
    { table: "ticket_deals", a: ["ticket_id", "tickets"], b: ["deal_id", "deals"] }
  ] as const
  for (const { a, b, table } of links) {
    yield* run(`
      CREATE TABLE ${table} (
        account_id bigint NOT NULL,
        ${a[0]} text NOT NULL,
        ${b[0]} text NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (account_id, ${a[0]}, ${b[0]}),
        FOREIGN KEY (account_id, ${a[0]}) REFERENCES ${a[1]} (account_id, id) ON DELETE CASCADE,
        FOREIGN KEY (account_id, ${b[0]}) REFERENCES ${b[1]} (account_id, id) ON DELETE CASCADE
      )
    `)
    yield* run(`CREATE INDEX ${table}_reverse ON ${table} (account_id, ${b[0]}, ${a[0]})`)
  }

  // Ticket counters. TG_ARGV[0]: 'contacts_count' or 'deals_count'. A ticket deleted with its
  // links is no longer there to update, which is right.
  yield* run(`
    CREATE FUNCTION ticket_link_counts() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        UPDATE tickets t
        SET contacts_count = t.contacts_count + CASE WHEN TG_ARGV[0] = 'contacts_count' THEN d.n ELSE 0 END,
            deals_count = t.deals_count + CASE WHEN TG_ARGV[0] = 'deals_count' THEN d.n ELSE 0 END
        FROM (SELECT account_id, ticket_id, count(*)::integer AS n FROM new_rows GROUP BY 1, 2) d
        WHERE t.account_id = d.account_id AND t.id = d.ticket_id;
      ELSE
        UPDATE tickets t
        SET contacts_count = t.contacts_count - CASE WHEN TG_ARGV[0] = 'contacts_count' THEN d.n ELSE 0 END,
            deals_count = t.deals_count - CASE WHEN TG_ARGV[0] = 'deals_count' THEN d.n ELSE 0 END
        FROM (SELECT account_id, ticket_id, count(*)::integer AS n FROM old_rows GROUP BY 1, 2) d
        WHERE t.account_id = d.account_id AND t.id = d.ticket_id;
      END IF;
      RETURN NULL;
    END
    $$
  `)
  for (const [table, counter] of [["ticket_contacts", "contacts_count"], ["ticket_deals", "deals_count"]] as const) {
    yield* run(`
      CREATE TRIGGER ${table}_counted_insert AFTER INSERT ON ${table}
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_link_counts('${counter}')
    `)
    yield* run(`
      CREATE TRIGGER ${table}_counted_delete AFTER DELETE ON ${table}
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_link_counts('${counter}')
    `)
  }

  // ---------------------------------------------------------------------------------------------
  // Notes
  // ---------------------------------------------------------------------------------------------

  yield* run(`
    CREATE TABLE notes (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      id text NOT NULL CHECK (id ~ '^[0-9a-f]{24}$'),
      object_type text NOT NULL CHECK (${KIND_CHECK.replace("kind", "object_type")}),
      record_id text NOT NULL,
      body text NOT NULL,
      made_by bigint REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, id)
    )
  `)
  yield* run(`CREATE INDEX notes_record ON notes (account_id, object_type, record_id, created_at, id)`)
})

export default migration
