/**
 * Jest setup of the `integration` and `e2e` projects: every reply a test receives and every webhook its receivers get
 * is checked against `apps/api/openapi.json` (reply-watch.ts says what is watched and what is skipped), and a test
 * during which one did not conform fails with the route or webhook, the field and the reason. A reply or webhook that
 * arrives after the file's last test fails the file.
 *
 * Applications are watched from the test side: `createApp` is replaced, for every test file, by one that wraps what
 * the real one builds, so tests that build their own application (another configuration, a database that is down) are
 * watched like the harness's.
 *
 * Not seen from here, so not checked: requests a spawned process makes itself (the README quick start's `curl`, the
 * guide's receivers in other languages), replies of an API process read other than through `fetch`, the 431 that
 * `answerClientError` writes on the socket before Express, and the runs outside Jest (`npm run fuzz`, the chaos run).
 */
import { observeReceivedRequests } from "@lm/testing";
import type * as AppModule from "../../src/app";
import { checkReceivedRequest, takeReplyProblems, watchFetch, watchReplies } from "./reply-watch";

jest.mock("../../src/app", () => {
  const actual = jest.requireActual<typeof AppModule>("../../src/app");
  return {
    ...actual,
    createApp: (deps: Parameters<typeof actual.createApp>[0]) => watchReplies(actual.createApp(deps)),
  };
});

watchFetch();
observeReceivedRequests(checkReceivedRequest);

/** Fails (throws) with the problems found since the last call, if any. */
async function failOnProblems(when: string): Promise<void> {
  const problems = await takeReplyProblems();
  if (problems.length === 0) return;
  throw new Error(
    `${problems.length} repl${problems.length === 1 ? "y or webhook" : "ies or webhooks"} ${when} did not match ` +
      `apps/api/openapi.json:\n  ${problems.join("\n  ")}`,
  );
}

afterEach(() => failOnProblems("during this test (or before it, in the file's set-up)"));
afterAll(() => failOnProblems("after the file's last test"));
