/**
 * A TCP forwarder for tests: a loopback port piped to another address, which the test can take
 * down (every connection through it cut, new ones refused, as a database server that died) and
 * bring back, or point elsewhere (as an address moved to a promoted standby).
 */
import * as Net from "node:net"

export interface TcpForwarder {
  readonly port: number
  /** Cuts every connection and refuses new ones. */
  readonly down: () => Promise<void>
  /** Listens again on the same port, forwarding to `target` (default: the one before). */
  readonly up: (target?: { readonly host: string; readonly port: number }) => Promise<void>
  readonly close: () => Promise<void>
}

export const startTcpForwarder = async (target: { readonly host: string; readonly port: number }): Promise<TcpForwarder> => {
  let to = target
  const sockets = new Set<Net.Socket>()
  const server = Net.createServer((client) => {
    const upstream = Net.connect(to.port, to.host)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on("close", () => sockets.delete(socket))
      socket.on("error", () => {
        client.destroy()
        upstream.destroy()
      })
    }
    client.pipe(upstream)
    upstream.pipe(client)
  })
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject)
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject)
        resolve()
      })
    })
  await listen(0)
  const port = (server.address() as Net.AddressInfo).port
  const down = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy()
      if (!server.listening) return resolve()
      server.close(() => resolve())
    })
  return {
    port,
    down,
    up: async (next) => {
      if (next !== undefined) to = next
      if (!server.listening) await listen(port)
    },
    close: down
  }
}
