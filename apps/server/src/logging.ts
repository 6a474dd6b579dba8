/** Structured logs: one JSON object per line on stdout. */
import { Logger } from "effect"

export const LoggingLive = Logger.layer([Logger.consoleJson])
