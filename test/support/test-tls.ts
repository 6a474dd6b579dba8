/**
 * The test TLS material in test/fixtures/tls: a private CA and a certificate for `localhost` it
 * signed, served by the local HTTPS webhook receiver and the local SMTP server. The apps trust the
 * CA through `WASL_WEBHOOK_CA_FILE` and `WASL_SMTP_CA_FILE`.
 */
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const TLS_DIR = fileURLToPath(new URL("../fixtures/tls/", import.meta.url))

/** The CA that signed the `localhost` certificate. */
export const TEST_CA_FILE = Path.join(TLS_DIR, "ca.pem")
/** The certificate for `localhost`. */
export const LOCALHOST_CERT_FILE = Path.join(TLS_DIR, "localhost.pem")
/** Its private key. */
export const LOCALHOST_KEY_FILE = Path.join(TLS_DIR, "localhost-key.pem")
