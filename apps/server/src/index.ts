export * from "./config.ts"
export * from "./http-server.ts"
export * from "./logging.ts"
export * from "./services.ts"
