/** A tiny JSON client for black-box HTTP tests over a real socket. */
export interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly body: any
  readonly text: string
}

export interface RequestOptions {
  readonly token?: string
  readonly cookie?: string
  readonly body?: unknown
  /** Sent verbatim instead of JSON-encoding `body`. */
  readonly raw?: string
  readonly headers?: Record<string, string>
}

export const makeClient = (baseUrl: string) =>
  async (method: string, path: string, options: RequestOptions = {}): Promise<Reply> => {
    const headers: Record<string, string> = { accept: "application/json", ...options.headers }
    if (options.token !== undefined) headers["authorization"] = `Bearer ${options.token}`
    if (options.cookie !== undefined) headers["cookie"] = options.cookie
    let body: string | undefined
    if (options.raw !== undefined) body = options.raw
    else if (options.body !== undefined) body = JSON.stringify(options.body)
    if (body !== undefined && headers["content-type"] === undefined) headers["content-type"] = "application/json"
    const response = await fetch(baseUrl + path, { method, headers, ...(body === undefined ? {} : { body }) })
    const text = await response.text()
    let parsed: unknown = undefined
    try {
      parsed = text === "" ? undefined : JSON.parse(text)
    } catch {
      parsed = undefined
    }
    return { status: response.status, headers: response.headers, body: parsed, text }
  }

export type Client = ReturnType<typeof makeClient>
