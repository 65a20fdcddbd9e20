/**
 * The standard's routes the emulator serves (under `/v2`: cob, cobv, lotecobv, pix, devolução, webhook, and Pix
 * Automático's locrec, rec, solicrec, cobr, webhookrec, webhookcobr) and Efí's
 * payout routes, each naming its operation (for
 * the schemas) and answering with the standard's JSON. Requests reach a handler only after authentication and
 * schema validation (api-server.ts), so handlers read their input as the schemas guarantee it.
 */
import type { Bank } from "./bank";
import type { OperationName, RequestParts } from "./request-validator";
import { batchJson, chargeJson, payoutJson, paymentJson, refundJson, webhookJson } from "./wire";

/** A route's answer: a status and, unless empty, a JSON body. */
export interface RouteReply {
  status: number;
  body?: unknown;
}

interface Route {
  method: string;
  /** Path template; `:name` segments are captured, URL-decoded. */
  path: string;
  operation: OperationName;
  handle(request: RequestParts): RouteReply;
}

/** The route matching a request, and its path parameters. */
export interface RouteMatch {
  operation: OperationName;
  params: Record<string, string>;
  handle(request: RequestParts): RouteReply;
}

type Json = Record<string, unknown>;

/** The page size of the standard's lists (`GET /pix`, `GET /rec`) when the request names none. */
const DEFAULT_PAGE_SIZE = 100;

/**
 * A list's reply body as the standard pages it (`parametros` with `inicio`, `fim` and `paginacao`): the page of
 * `found` that `query`'s `paginacao.paginaAtual` and `paginacao.itensPorPagina` ask for, each item as `toJson` writes
 * it, under the key `key`.
 */
function pagedList<T>(
  query: Record<string, unknown>,
  found: T[],
  key: string,
  toJson: (item: T) => unknown = (item) => item,
): Json {
  const page = (query["paginacao.paginaAtual"] as number | undefined) ?? 0;
  const size = (query["paginacao.itensPorPagina"] as number | undefined) ?? DEFAULT_PAGE_SIZE;
  const paginacao = {
    paginaAtual: page,
    itensPorPagina: size,
    quantidadeDePaginas: Math.max(1, Math.ceil(found.length / size)),
    quantidadeTotalDeItens: found.length,
  };
  return {
    parametros: { inicio: query.inicio, fim: query.fim, paginacao },
    [key]: found.slice(page * size, (page + 1) * size).map(toJson),
  };
}

/** Pix Automático's routes (`locrec`, `rec`, `solicrec`, `cobr`, `webhookrec`, `webhookcobr`), acting on `bank`. */
function recurrenceRoutes(bank: Bank): Route[] {
  const book = bank.recurrences;
  const now = () => new Date();
  return [
    {
      method: "POST",
      path: "/v2/locrec",
      operation: "locrec.post",
      handle: () => ({ status: 201, body: book.createLocation(now()) }),
    },
    {
      method: "GET",
      path: "/v2/locrec/:id",
      operation: "locrec.get",
      handle: ({ params }) => ({ status: 200, body: book.location(Number(params.id)) }),
    },
    {
      method: "POST",
      path: "/v2/rec",
      operation: "rec.post",
      handle: ({ body }) => ({ status: 201, body: book.createRecurrence(body as Json, now()) }),
    },
    {
      method: "GET",
      path: "/v2/rec",
      operation: "rec.list",
      handle: ({ query }) => {
        const found = book.listRecurrences({
          inicio: new Date(query.inicio as string),
          fim: new Date(query.fim as string),
          cpf: query.cpf as string | undefined,
          cnpj: query.cnpj as string | undefined,
        });
        return { status: 200, body: pagedList(query, found, "recs") };
      },
    },
    {
      method: "GET",
      path: "/v2/rec/:idRec",
      operation: "rec.get",
      handle: ({ params, query }) => ({
        status: 200,
        body: book.recurrence(params.idRec as string, query.txid as string | undefined),
      }),
    },
    {
      method: "PATCH",
      path: "/v2/rec/:idRec",
      operation: "rec.patch",
      handle: ({ params, body }) => ({ status: 200, body: book.revise(params.idRec as string, body as Json, now()) }),
    },
    {
      method: "POST",
      path: "/v2/solicrec",
      operation: "solicrec.post",
      handle: ({ body }) => ({ status: 201, body: book.requestConfirmation(body as Json, now()) }),
    },
    {
      method: "GET",
      path: "/v2/solicrec/:idSolicRec",
      operation: "solicrec.get",
      handle: ({ params }) => ({ status: 200, body: book.confirmationRequest(params.idSolicRec as string) }),
    },
    {
      method: "PUT",
      path: "/v2/cobr/:txid",
      operation: "cobr.put",
      handle: ({ params, body }) => ({
        status: 201,
        body: book.createCycle(params.txid as string, body as Json, now()),
      }),
    },
    {
      method: "GET",
      path: "/v2/cobr/:txid",
      operation: "cobr.get",
      handle: ({ params }) => ({ status: 200, body: book.cycle(params.txid as string) }),
    },
    {
      method: "PATCH",
      path: "/v2/cobr/:txid",
      operation: "cobr.patch",
      handle: ({ params }) => ({ status: 200, body: book.reviseCycle(params.txid as string, now()) }),
    },
    {
      method: "POST",
      path: "/v2/cobr/:txid/retentativa/:data",
      operation: "cobr.retry",
      handle: ({ params }) => ({
        status: 201,
        body: book.retryCycle(params.txid as string, params.data as string, now()),
      }),
    },
    ...(["rec", "cobr"] as const).flatMap((kind): Route[] => [
      {
        method: "PUT",
        path: `/v2/webhook${kind}`,
        operation: `webhook${kind}.put`,
        handle: ({ body }) => {
          book.setWebhook(kind, (body as { webhookUrl: string }).webhookUrl);
          return { status: 200 };
        },
      },
      {
        method: "GET",
        path: `/v2/webhook${kind}`,
        operation: `webhook${kind}.get`,
        handle: () => ({ status: 200, body: book.webhook(kind) }),
      },
    ]),
  ];
}

function routesOf(bank: Bank): Route[] {
  const { state } = bank;
  return [
    ...recurrenceRoutes(bank),
    ...(["cob", "cobv"] as const).flatMap((kind): Route[] => [
      {
        method: "PUT",
        path: `/v2/${kind}/:txid`,
        operation: `${kind}.put`,
        handle: ({ params, body }) => {
          const charge = state.createCharge(kind, params.txid as string, body as Json, new Date());
          return { status: 201, body: chargeJson(charge, []) };
        },
      },
      {
        method: "GET",
        path: `/v2/${kind}/:txid`,
        operation: `${kind}.get`,
        handle: ({ params }) => {
          const charge = state.charge(params.txid as string, kind);
          return { status: 200, body: chargeJson(charge, state.paymentsOf(charge)) };
        },
      },
      {
        method: "PATCH",
        path: `/v2/${kind}/:txid`,
        operation: `${kind}.patch`,
        handle: ({ params, body }) => {
          const charge = state.reviseCharge(params.txid as string, kind, body as Json);
          return { status: 200, body: chargeJson(charge, state.paymentsOf(charge)) };
        },
      },
    ]),
    {
      method: "PUT",
      path: "/v2/lotecobv/:id",
      operation: "lotecobv.put",
      handle: ({ params, body }) => {
        state.createBatch(params.id as string, body as { descricao: string; cobsv: Json[] }, new Date());
        return { status: 202 };
      },
    },
    {
      method: "GET",
      path: "/v2/lotecobv/:id",
      operation: "lotecobv.get",
      handle: ({ params }) => ({ status: 200, body: batchJson(state.batch(params.id as string)) }),
    },
    {
      method: "GET",
      path: "/v2/pix",
      operation: "pix.list",
      handle: ({ query }) => {
        const found = state.listPayments({
          inicio: new Date(query.inicio as string),
          fim: new Date(query.fim as string),
          txid: query.txid as string | undefined,
          txIdPresente: query.txIdPresente as boolean | undefined,
          devolucaoPresente: query.devolucaoPresente as boolean | undefined,
          cpf: query.cpf as string | undefined,
          cnpj: query.cnpj as string | undefined,
        });
        return { status: 200, body: pagedList(query, found, "pix", paymentJson) };
      },
    },
    {
      method: "GET",
      path: "/v2/pix/:e2eid",
      operation: "pix.get",
      handle: ({ params }) => ({ status: 200, body: paymentJson(state.payment(params.e2eid as string)) }),
    },
    {
      method: "PUT",
      path: "/v2/pix/:e2eid/devolucao/:id",
      operation: "devolucao.put",
      handle: ({ params, body }) => {
        const { refund } = bank.requestRefund(
          params.e2eid as string,
          params.id as string,
          body as { valor: string; natureza?: string; descricao?: string },
        );
        return { status: 201, body: refundJson(refund) };
      },
    },
    {
      method: "GET",
      path: "/v2/pix/:e2eid/devolucao/:id",
      operation: "devolucao.get",
      handle: ({ params }) => ({
        status: 200,
        body: refundJson(state.refund(params.e2eid as string, params.id as string)),
      }),
    },
    {
      method: "PUT",
      path: "/v2/webhook/:chave",
      operation: "webhook.put",
      handle: ({ params, body }) => {
        state.setWebhook(params.chave as string, (body as { webhookUrl: string }).webhookUrl, new Date());
        return { status: 200 };
      },
    },
    {
      method: "GET",
      path: "/v2/webhook/:chave",
      operation: "webhook.get",
      handle: ({ params }) => {
        const chave = params.chave as string;
        return { status: 200, body: webhookJson(state.webhookOf(chave), chave) };
      },
    },
    {
      method: "DELETE",
      path: "/v2/webhook/:chave",
      operation: "webhook.delete",
      handle: ({ params }) => {
        state.deleteWebhook(params.chave as string);
        return { status: 204 };
      },
    },
    {
      method: "PUT",
      path: "/v3/gn/pix/:idEnvio",
      operation: "payout.put",
      handle: ({ params, body }) => {
        const { payout } = bank.requestPayout(
          params.idEnvio as string,
          body as { valor: string; pagador: { chave: string }; favorecido: { chave: string } },
        );
        return { status: 201, body: payoutJson(payout) };
      },
    },
    {
      method: "GET",
      path: "/v2/gn/pix/enviados/id-envio/:idEnvio",
      operation: "payout.get",
      handle: ({ params }) => ({ status: 200, body: payoutJson(state.payout(params.idEnvio as string)) }),
    },
  ];
}

/** Path parameters when `pathname` fits `template`, else null (also for a segment that is not valid URL encoding). */
function matchPath(template: string, pathname: string): Record<string, string> | null {
  const expected = template.split("/");
  const actual = pathname.split("/");
  if (expected.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (const [index, segment] of expected.entries()) {
    const value = actual[index] as string;
    if (segment.startsWith(":")) {
      if (value === "") return null;
      try {
        params[segment.slice(1)] = decodeURIComponent(value);
      } catch {
        return null;
      }
    } else if (segment !== value) {
      return null;
    }
  }
  return params;
}

/** Finds the route of a request: a match, `"method"` when the path exists under other methods, or null. */
export type Router = (method: string, pathname: string) => RouteMatch | "method" | null;

/** The router of the standard's and Efí's routes, acting on `bank`. */
export function createRouter(bank: Bank): Router {
  const routes = routesOf(bank);
  return (method, pathname) => {
    let pathKnown = false;
    for (const route of routes) {
      const params = matchPath(route.path, pathname);
      if (!params) continue;
      if (route.method === method) return { operation: route.operation, params, handle: route.handle };
      pathKnown = true;
    }
    return pathKnown ? "method" : null;
  };
}
