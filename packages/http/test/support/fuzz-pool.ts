/**
 * What the HTTP fuzz knows of the server's data: the ids it can reach, by the collection path
 * that holds them, learnt from the answers it gets.
 */

/**
 * Ids by the collection path that holds them (`/api/deals`, `/api/deals/<id>/notes`,
 * `/api/account/webhooks/<id>/deliveries`), as the answers showed them.
 */
export class IdPool {
  private readonly byCollection = new Map<string, Set<string>>()

  private readonly keep: ReadonlySet<string>

  /** `keep`: paths of ids never to be drawn (`/api/tokens/1`: the token the fuzz authenticates with, which a DELETE would end). */
  constructor(keep: ReadonlySet<string> = new Set()) {
    this.keep = keep
  }

  add(collection: string, id: unknown): void {
    const key = collection.replace(/\/+$/, "")
    if ((typeof id !== "string" && typeof id !== "number") || this.keep.has(`${key}/${id}`)) return
    let ids = this.byCollection.get(key)
    if (ids === undefined) this.byCollection.set(key, ids = new Set())
    ids.add(String(id))
  }

  remove(collection: string, id: string): void {
    this.byCollection.get(collection.replace(/\/+$/, ""))?.delete(id)
  }

  in(collection: string): ReadonlyArray<string> {
    return [...(this.byCollection.get(collection) ?? [])]
  }

  all(): ReadonlyArray<string> {
    return [...this.byCollection.values()].flatMap((ids) => [...ids])
  }
}

/** A property definition as `GET /api/{kind}/properties` lists it. */
export interface PropertyInfo {
  readonly internal_name: string
  readonly type: string
  readonly enum?: ReadonlyArray<{ readonly internal_name: string }> | null
}

/** What the generator draws from: the live pools and what the setup learnt. */
export interface FuzzState {
  /** Ids of the fuzzed account. */
  readonly own: IdPool
  /** Ids of another account (never to be reached). */
  readonly foreign: IdPool
  /** The property definitions of each kind (path segment). */
  readonly properties: ReadonlyMap<string, ReadonlyArray<PropertyInfo>>
  /** The email address and password of the fuzzed user (for logins with them). */
  readonly email: string
  readonly password: string
  /** The access token the fake WhatsApp Cloud API accepts (for sending numbers on it). */
  readonly cloudToken: string
}

/** A records batch path: the kind's collection and the operation. */
const BATCH = /^(\/api\/[a-z]+)\/batch\/(create|update|delete|upsert)$/

const idOf = (item: any): unknown => item?._id ?? item?.properties?._id ?? item?.id ?? item?.verification_id

/**
 * Adds to (or takes from) `pool` the ids an answer shows: what a 201 created (under the path it
 * was posted to), what a list holds, what a DELETE removed, a verification a send started.
 */
export const learn = (pool: IdPool, request: { readonly method: string; readonly url: string }, status: number, body: any): void => {
  if (status < 200 || status >= 300 || body === undefined) return
  const path = request.url.split("?")[0]!.replace(/\/+$/, "")
  if (request.method === "GET" && Array.isArray(body.data)) {
    for (const item of body.data) pool.add(path, idOf(item))
  } else if (request.method === "POST" && BATCH.test(path) && Array.isArray(body.data)) {
    // A batch answers the records it wrote (the ids it deleted) of the kind's collection.
    const [, collection, operation] = BATCH.exec(path)!
    for (const item of body.data) {
      if (operation === "delete") pool.remove(collection!, String(item))
      else pool.add(collection!, idOf(item))
    }
  } else if (request.method === "POST" && status === 201) {
    pool.add(path, idOf(body.data))
  } else if (request.method === "DELETE") {
    const cut = path.lastIndexOf("/")
    pool.remove(path.slice(0, cut), path.slice(cut + 1))
  }
  if (typeof body.verification_id === "string") pool.add("/api/verifications", body.verification_id)
}
