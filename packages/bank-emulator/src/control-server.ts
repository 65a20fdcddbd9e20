/**
 * A plain-HTTP control API on 127.0.0.1 for a person driving the emulator (`npm run dev:bank`): pay a charge, send a
 * forged callback, return money unasked (MED), and play the payer's bank in Pix Automático. Amounts are integer
 * centavos. Not part of the standard.
 *
 * - `POST /charges/{txid}/pay` `{amount?, date?, callback?: "send"|"drop", payer?: {name, cpf?|cnpj?}, force?}` →
 *   200 `{endToEndId}` (`date`, `YYYY-MM-DD`, pays a due-date charge on that day: late, with its fine and interest)
 * - `POST /forge` `{txid, amount, endToEndId?, url?}` → 200 `{status}` (what the service answered)
 * - `POST /pix/{e2eid}/med` `{amount, callback?}` → 200 `{id, rtrId}`
 * - `POST /recurrences/{idRec}/approve`, `/reject`, `/cancel` `{callback?}` → 200 the recurrence: the payer's bank
 *   answers a Pix Automático recurrence, or the payer cancels an approved one
 * - `GET /recurrences` → 200 `{recs}`: every recurrence, with its `idRec`
 * - `POST /cycles/{txid}/pay`, `/fail` `{callback?}` → 200: the payer's bank settles or fails a cycle charge's
 *   scheduled attempt
 *
 * A refusal is 409 `{error}` (400 for a body that is not JSON, 404 for another path).
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Bank, CallbackChoice } from "./bank";
import type { Payer } from "./records";

type Body = Record<string, unknown>;

async function readJson(request: IncomingMessage): Promise<Body> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text === "" ? {} : (JSON.parse(text) as Body);
}

function optionalNumber(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}

function callbackChoice(value: unknown): CallbackChoice | undefined {
  return value === "drop" || value === "send" ? value : undefined;
}

/** Runs the control command of `method` and `pathname`; null when there is none. */
async function command(bank: Bank, method: string, pathname: string, body: Body): Promise<unknown> {
  if (method === "GET" && pathname === "/recurrences") {
    return { recs: bank.recurrences.listRecurrences({ inicio: new Date(0), fim: new Date(8.64e15) }) };
  }
  if (method !== "POST") return null;
  const choice = { callback: callbackChoice(body.callback) };
  const recurrence = /^\/recurrences\/([^/]+)\/(approve|reject|cancel)$/.exec(pathname);
  if (recurrence) {
    const idRec = decodeURIComponent(recurrence[1] as string);
    if (recurrence[2] === "cancel") return bank.recurrences.cancelByPayer(idRec, choice);
    return bank.recurrences.answer(idRec, recurrence[2] === "approve", choice);
  }
  const cycle = /^\/cycles\/([^/]+)\/(pay|fail)$/.exec(pathname);
  if (cycle) {
    const txid = decodeURIComponent(cycle[1] as string);
    return cycle[2] === "pay" ? bank.recurrences.payCycle(txid, choice) : bank.recurrences.failCycle(txid, choice);
  }
  const pay = /^\/charges\/([^/]+)\/pay$/.exec(pathname);
  if (pay) {
    return bank.payCharge(decodeURIComponent(pay[1] as string), {
      amount: optionalNumber(body.amount),
      payer: body.payer as Payer | undefined,
      callback: callbackChoice(body.callback),
      force: body.force === true,
      date: typeof body.date === "string" ? body.date : undefined,
    });
  }
  if (pathname === "/forge") {
    const item = {
      txid: String(body.txid),
      amount: Number(body.amount),
      endToEndId: body.endToEndId as string | undefined,
    };
    return { status: await bank.forgeCallback(item, body.url as string | undefined) };
  }
  const med = /^\/pix\/([^/]+)\/med$/.exec(pathname);
  if (med) {
    return bank.med(decodeURIComponent(med[1] as string), Number(body.amount), {
      callback: callbackChoice(body.callback),
    });
  }
  return null;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(payload) });
  response.end(payload);
}

/** A listening control server. */
export interface ControlServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the control API on 127.0.0.1:`port` (0 = a free port).
 * @throws Error when the port cannot be bound
 */
export async function startControlServer(bank: Bank, port: number): Promise<ControlServer> {
  const server = http.createServer(async (request, response) => {
    const { pathname } = new URL(request.url ?? "/", "http://127.0.0.1");
    let body: Body;
    try {
      body = await readJson(request);
    } catch {
      send(response, 400, { error: "the body is not JSON" });
      return;
    }
    try {
      const result = await command(bank, request.method ?? "GET", pathname, body);
      if (result === null) send(response, 404, { error: `no command ${request.method} ${pathname}` });
      else send(response, 200, result);
    } catch (err) {
      send(response, 409, { error: (err as Error).message });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
