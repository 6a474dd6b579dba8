/**
 * `apps/worker`: the delivery worker alone (no HTTP server), for running workers separately from
 * the API servers against one PostgreSQL (decisions §9); any number of them share the work.
 * Migrates on start like the server. SIGTERM/SIGINT stop it gracefully: attempts in flight are
 * released for another worker, nothing is lost.
 */
import { Layer } from "effect"
import { AppServicesLive, runService, WaslConfig } from "@wasl/app-server"
import { DeliveryWorkerLive } from "@wasl/worker"

runService(WaslConfig, (wasl) => DeliveryWorkerLive().pipe(Layer.provide(AppServicesLive(wasl))))
