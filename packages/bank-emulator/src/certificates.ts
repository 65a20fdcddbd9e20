/**
 * The emulator's test PKI, made with the `openssl` command (child_process execFile) in a folder: a CA, a server
 * certificate for 127.0.0.1 and localhost (subjectAltName), the registered client's certificate, key and PKCS#12
 * bundle (no passphrase), its client secret, and a second, foreign CA with a client certificate the bank must
 * refuse. A folder that already holds them is reused, so a person's configured acquirer survives a restart.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { access, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { newClientSecret } from "./ids";

const run = promisify(execFile);

/** The client id of the one registered client. */
export const CLIENT_ID = "bank-emulator-client";

/** File names inside the folder. */
const FILES = {
  caCert: "ca.pem",
  caKey: "ca.key",
  serverCert: "server.pem",
  serverKey: "server.key",
  clientCert: "client.pem",
  clientKey: "client.key",
  clientPfx: "client.p12",
  clientSecret: "client-secret.txt",
  foreignCaCert: "foreign-ca.pem",
  foreignCaKey: "foreign-ca.key",
  foreignClientCert: "foreign-client.pem",
  foreignClientKey: "foreign-client.key",
} as const;

/** Certificates of 825 days: the longest a TLS client accepts for a leaf without complaint. */
const LEAF_DAYS = "825";
const CA_DAYS = "3650";

/** Everything the server and the client need, read back from the folder. */
export interface Certificates {
  caPem: string;
  serverCertPem: string;
  serverKeyPem: string;
  clientId: string;
  clientSecret: string;
  clientCertPem: string;
  clientKeyPem: string;
  clientPfx: Buffer;
  foreignClientCertPem: string;
  foreignClientKeyPem: string;
  /** Paths of the client's files, for the operators' CLI. */
  files: { clientSecret: string; cert: string; key: string; pfx: string; ca: string };
}

async function openssl(args: string[]): Promise<void> {
  await run("openssl", args);
}

/** A new EC P-256 key written to `keyPath` (mode 0600), fast to make and accepted by every TLS stack in use. */
async function newKey(keyPath: string): Promise<void> {
  await openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", keyPath]);
}

async function newCa(dir: string, cert: string, key: string, commonName: string): Promise<void> {
  await newKey(join(dir, key));
  await openssl([
    ...["req", "-x509", "-new", "-key", join(dir, key), "-out", join(dir, cert), "-days", CA_DAYS],
    ...["-subj", `/CN=${commonName}`],
    ...["-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"],
  ]);
}

/** A leaf certificate for `commonName` signed by the CA, with the X.509v3 `extensions` (one per line). */
async function newLeaf(
  dir: string,
  ca: { cert: string; key: string },
  leaf: { cert: string; key: string },
  commonName: string,
  extensions: string[],
): Promise<void> {
  const csr = join(dir, `${leaf.cert}.csr`);
  const ext = join(dir, `${leaf.cert}.ext`);
  await newKey(join(dir, leaf.key));
  await openssl(["req", "-new", "-key", join(dir, leaf.key), "-subj", `/CN=${commonName}`, "-out", csr]);
  await writeFile(ext, `${["basicConstraints=CA:FALSE", ...extensions].join("\n")}\n`);
  await openssl([
    ...["x509", "-req", "-in", csr, "-CA", join(dir, ca.cert), "-CAkey", join(dir, ca.key)],
    ...["-set_serial", `0x${randomBytes(16).toString("hex")}`, "-days", LEAF_DAYS, "-extfile", ext],
    ...["-out", join(dir, leaf.cert)],
  ]);
  await Promise.all([rm(csr), rm(ext)]);
}

async function generate(dir: string): Promise<void> {
  const ca = { cert: FILES.caCert, key: FILES.caKey };
  const foreignCa = { cert: FILES.foreignCaCert, key: FILES.foreignCaKey };
  await Promise.all([
    newCa(dir, ca.cert, ca.key, "Bank Emulator Test CA"),
    newCa(dir, foreignCa.cert, foreignCa.key, "Foreign Test CA"),
  ]);
  await Promise.all([
    newLeaf(dir, ca, { cert: FILES.serverCert, key: FILES.serverKey }, "127.0.0.1", [
      "subjectAltName=IP:127.0.0.1,DNS:localhost",
      "extendedKeyUsage=serverAuth",
    ]),
    newLeaf(dir, ca, { cert: FILES.clientCert, key: FILES.clientKey }, CLIENT_ID, ["extendedKeyUsage=clientAuth"]),
    newLeaf(dir, foreignCa, { cert: FILES.foreignClientCert, key: FILES.foreignClientKey }, CLIENT_ID, [
      "extendedKeyUsage=clientAuth",
    ]),
  ]);
  await openssl([
    ...["pkcs12", "-export", "-in", join(dir, FILES.clientCert), "-inkey", join(dir, FILES.clientKey)],
    ...["-certfile", join(dir, FILES.caCert), "-out", join(dir, FILES.clientPfx), "-passout", "pass:"],
  ]);
  // Written last: its presence says the folder is complete.
  await writeFile(join(dir, FILES.clientSecret), `${newClientSecret()}\n`, { mode: 0o600 });
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/**
 * The certificates in `dir`, made first when the folder lacks them (the folder is created if needed).
 * @throws Error when `openssl` is missing or fails (its message names the command, never a key)
 */
export async function ensureCertificates(dir: string): Promise<Certificates> {
  await mkdir(dir, { recursive: true });
  const complete = await Promise.all(Object.values(FILES).map((name) => exists(join(dir, name))));
  if (complete.includes(false)) await generate(dir);
  const text = (name: string): Promise<string> => readFile(join(dir, name), "utf8");
  return {
    caPem: await text(FILES.caCert),
    serverCertPem: await text(FILES.serverCert),
    serverKeyPem: await text(FILES.serverKey),
    clientId: CLIENT_ID,
    clientSecret: (await text(FILES.clientSecret)).trim(),
    clientCertPem: await text(FILES.clientCert),
    clientKeyPem: await text(FILES.clientKey),
    clientPfx: await readFile(join(dir, FILES.clientPfx)),
    foreignClientCertPem: await text(FILES.foreignClientCert),
    foreignClientKeyPem: await text(FILES.foreignClientKey),
    files: {
      clientSecret: join(dir, FILES.clientSecret),
      cert: join(dir, FILES.clientCert),
      key: join(dir, FILES.clientKey),
      pfx: join(dir, FILES.clientPfx),
      ca: join(dir, FILES.caCert),
    },
  };
}
