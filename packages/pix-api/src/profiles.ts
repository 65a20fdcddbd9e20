/**
 * What differs between banks that implement the API Pix standard: where each operation lives and how the token is
 * asked for. `bcb` is the standard as published (`bacen/pix-api` openapi.yaml, release 2.x); `efi` is Efí's
 * implementation of it, which asks for the token with a JSON body and adds payouts (not in the standard) at its own
 * paths outside the standard's base.
 */

/** A bank's dialect of the standard. */
export type PixApiProfile = "bcb" | "efi";

/** The URLs of one client's operations; every argument is encoded as one path segment. */
export interface PixApiProfileRules {
  /** The token request's body (RFC 6749 §4.4.2): form-encoded, or the same field as JSON at Efí. */
  tokenBody: { form: { grant_type: "client_credentials" } } | { json: { grant_type: "client_credentials" } };
  /** `PUT`/`PATCH`/`GET {apiUrl}/cob/{txid}`. */
  cob(txid: string): string;
  /** `PUT`/`PATCH`/`GET {apiUrl}/cobv/{txid}`. */
  cobv(txid: string): string;
  /** `PUT`/`GET {apiUrl}/lotecobv/{id}`. */
  lotecobv(id: number): string;
  /** `GET {apiUrl}/pix/{e2eid}`. */
  pix(endToEndId: string): string;
  /** `GET {apiUrl}/pix?inicio&fim&paginacao.paginaAtual` (RFC 3339 instants, pages from 0). */
  pixList(range: { from: Date; to: Date }, page: number): string;
  /** `PUT`/`GET {apiUrl}/pix/{e2eid}/devolucao/{id}`. */
  refund(endToEndId: string, id: string): string;
  /** `PUT`/`GET {apiUrl}/webhook/{chave}`. */
  webhook(pixKey: string): string;
  /** `POST {apiUrl}/rec`, or with an id `GET`/`PATCH {apiUrl}/rec/{idRec}[?txid=]` (Pix Automático). */
  rec(idRec?: string, txid?: string): string;
  /** `GET {apiUrl}/rec?inicio&fim[&cpf|cnpj]&paginacao.paginaAtual`: recurrences created in [from, to]. */
  recList(range: { from: Date; to: Date }, debtor: { cpf?: string; cnpj?: string }, page: number): string;
  /** `POST {apiUrl}/solicrec`, or with an id `GET {apiUrl}/solicrec/{idSolicRec}`. */
  solicrec(idSolicRec?: string): string;
  /** `PUT`/`PATCH`/`GET {apiUrl}/cobr/{txid}`. */
  cobr(txid: string): string;
  /** `POST {apiUrl}/cobr/{txid}/retentativa/{data}`. */
  cobrRetry(txid: string, date: string): string;
  /** `POST {apiUrl}/locrec`, or with an id `GET {apiUrl}/locrec/{id}`. */
  locrec(id?: number): string;
  /** `PUT`/`GET {apiUrl}/webhookrec` and `{apiUrl}/webhookcobr`. */
  webhookrec: string;
  webhookcobr: string;
  /** Efí's payouts at the API's origin (`PUT /v3/gn/pix/{idEnvio}`, `GET /v2/gn/pix/enviados/id-envio/{idEnvio}`);
   *  null for a profile without payouts. */
  payouts: { send(idEnvio: string): string; read(idEnvio: string): string } | null;
}

const GRANT = { grant_type: "client_credentials" } as const;

/**
 * The routes of `profile` for a bank whose standard paths start at `apiUrl` (e.g. `https://pix.example.com/v2`; a
 * trailing slash is ignored).
 * @throws TypeError for an unknown profile or an `apiUrl` that is not an absolute URL
 */
export function profileRules(profile: PixApiProfile, apiUrl: string): PixApiProfileRules {
  if (profile !== "bcb" && profile !== "efi") throw new TypeError(`unknown API Pix profile: ${String(profile)}`);
  if (!URL.canParse(apiUrl)) throw new TypeError("apiUrl is not an absolute URL");
  const origin = new URL(apiUrl).origin;
  const base = apiUrl.replace(/\/+$/, "");
  const segment = encodeURIComponent;
  return {
    tokenBody: profile === "efi" ? { json: GRANT } : { form: GRANT },
    cob: (txid) => `${base}/cob/${segment(txid)}`,
    cobv: (txid) => `${base}/cobv/${segment(txid)}`,
    lotecobv: (id) => `${base}/lotecobv/${id}`,
    pix: (endToEndId) => `${base}/pix/${segment(endToEndId)}`,
    pixList: (range, page) => {
      const query = new URLSearchParams({
        inicio: range.from.toISOString(),
        fim: range.to.toISOString(),
        "paginacao.paginaAtual": String(page),
      });
      return `${base}/pix?${query.toString()}`;
    },
    refund: (endToEndId, id) => `${base}/pix/${segment(endToEndId)}/devolucao/${segment(id)}`,
    webhook: (pixKey) => `${base}/webhook/${segment(pixKey)}`,
    rec: (idRec, txid) => {
      if (idRec === undefined) return `${base}/rec`;
      const query = txid === undefined ? "" : `?${new URLSearchParams({ txid }).toString()}`;
      return `${base}/rec/${segment(idRec)}${query}`;
    },
    recList: (range, debtor, page) => {
      const query = new URLSearchParams({
        inicio: range.from.toISOString(),
        fim: range.to.toISOString(),
        ...(debtor.cpf === undefined ? {} : { cpf: debtor.cpf }),
        ...(debtor.cnpj === undefined ? {} : { cnpj: debtor.cnpj }),
        "paginacao.paginaAtual": String(page),
      });
      return `${base}/rec?${query.toString()}`;
    },
    solicrec: (id) => (id === undefined ? `${base}/solicrec` : `${base}/solicrec/${segment(id)}`),
    cobr: (txid) => `${base}/cobr/${segment(txid)}`,
    cobrRetry: (txid, date) => `${base}/cobr/${segment(txid)}/retentativa/${segment(date)}`,
    locrec: (id) => (id === undefined ? `${base}/locrec` : `${base}/locrec/${id}`),
    webhookrec: `${base}/webhookrec`,
    webhookcobr: `${base}/webhookcobr`,
    payouts:
      profile === "efi"
        ? {
            send: (idEnvio) => `${origin}/v3/gn/pix/${segment(idEnvio)}`,
            read: (idEnvio) => `${origin}/v2/gn/pix/enviados/id-envio/${segment(idEnvio)}`,
          }
        : null,
  };
}
