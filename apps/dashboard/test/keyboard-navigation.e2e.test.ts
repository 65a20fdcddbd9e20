/**
 * The dashboard used with the keyboard alone (DESIGN §15 "Quality bar"), in headless Chromium against the real API: a
 * skip link first, every page of the main navigation reached with Tab and opened with Enter (its heading then holds
 * the focus, visibly), the live/test switch moved with the arrow keys, a dialog opened, filled and submitted from the
 * keyboard, and Escape closing a dialog with the focus back on what opened it.
 */
import type { Browser, Page } from "playwright-core";
import { chromiumTitle, hasChromium, launchChromium } from "../../api/test/support/chromium";
import { useApiTestContext } from "../../api/test/support/harness";
import { signUpWithTwoFactor } from "../../api/test/support/two-factor";
import { useDashboardApi } from "./support/dashboard-browser";

jest.setTimeout(60_000);

/** What the focused element is, read in the page (its globals named without the DOM's types). */
interface Focused {
  tag: string;
  /** Its text, or a form control's label. */
  text: string;
  id: string;
  outline: string;
  inDialog: boolean;
}

const title = chromiumTitle("the dashboard with the keyboard alone");
if (!hasChromium) console.warn(title);

(hasChromium ? describe : describe.skip)(title, () => {
  const { ctx, origin } = useDashboardApi(useApiTestContext);
  let browser: Browser;
  let page: Page;

  /** The element that has the focus. */
  const focused = (): Promise<Focused> =>
    page.evaluate(() => {
      interface Element {
        tagName: string;
        textContent: string | null;
        id: string;
        labels?: Element[] | null;
        closest(selector: string): Element | null;
      }
      const scope = globalThis as unknown as {
        document: { activeElement: Element | null };
        getComputedStyle(element: Element): { outlineStyle: string };
      };
      const element = scope.document.activeElement;
      if (element === null) return { tag: "", text: "", id: "", outline: "none", inDialog: false };
      return {
        tag: element.tagName.toLowerCase(),
        // A form control reads as its label.
        text: (element.labels?.[0]?.textContent ?? element.textContent ?? "").trim(),
        id: element.id,
        outline: scope.getComputedStyle(element).outlineStyle,
        inDialog: element.closest("dialog") !== null,
      };
    });

  /** Presses Tab until the focused element's text is `text`. */
  const tabTo = async (text: string): Promise<Focused> => {
    for (let presses = 0; presses < 60; presses++) {
      await page.keyboard.press("Tab");
      const now = await focused();
      if (now.text === text) return now;
    }
    throw new Error(`Tab never reached "${text}"`);
  };

  beforeAll(async () => {
    const owner = await signUpWithTwoFactor(ctx);
    ctx.deps.now = () => new Date();
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const [name = "", value = ""] = owner.cookie.split("=");
    await context.addCookies([{ name, value, url: origin() }]);
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  test("when the page opens, then the first Tab reaches the skip link, which moves the focus to the page's content", async () => {
    await page.goto(`${origin()}/dashboard/`);
    await page.getByRole("heading", { level: 1, name: "Início" }).waitFor();
    await page.keyboard.press("Tab");
    const skip = await focused();
    await page.keyboard.press("Enter");

    expect(skip).toMatchObject({ tag: "a", text: "Pular para o conteúdo" });
    expect((await focused()).id).toBe("main");
  });

  test("when each page of the navigation is reached with Tab and opened with Enter, then its heading has the focus", async () => {
    const pages = [
      "Cobranças",
      "Webhooks",
      "Chaves de API",
      "Saques",
      "Disputas",
      "Notificações",
      "Segurança",
      "Início",
    ];
    const reached: string[] = [];
    for (const name of pages) {
      await page.getByRole("heading", { level: 1 }).waitFor();
      const link = await tabTo(name);
      expect(link).toMatchObject({ tag: "a", outline: "solid" });
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { level: 1, name }).waitFor();
      await page.waitForFunction(
        () =>
          (globalThis as unknown as { document: { activeElement: { tagName: string } } }).document.activeElement
            .tagName === "H1",
      );
      reached.push((await focused()).text);
    }

    expect(reached).toEqual(pages);
  });

  test("when the live/test switch is focused, then the arrow keys move between test and live", async () => {
    await tabTo("Teste");
    await page.keyboard.press("ArrowRight");
    await page.getByRole("radio", { name: "Produção" }).and(page.locator(":checked")).waitFor();
    const banner = await page.getByText("Ambiente de teste").count();
    await page.keyboard.press("ArrowLeft");
    await page.getByRole("radio", { name: "Teste" }).and(page.locator(":checked")).waitFor();

    expect(banner).toBe(0);
    expect(await page.getByText("Ambiente de teste").count()).toBe(1);
  });

  test("when a dialog is opened, filled and submitted from the keyboard, then the charge is made; Escape closes a dialog and gives the focus back", async () => {
    await page.goto(`${origin()}/dashboard/charges`);
    await page.getByRole("heading", { level: 1, name: "Cobranças" }).waitFor();
    await tabTo("Nova cobrança de teste");
    await page.keyboard.press("Enter");
    await page.getByRole("dialog", { name: "Nova cobrança de teste" }).waitFor();
    const inDialog = await focused();
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "detached" });
    const afterEscape = await focused();

    await page.keyboard.press("Enter");
    await page.getByRole("dialog", { name: "Nova cobrança de teste" }).waitFor();
    await page.keyboard.type("12,34");
    await page.keyboard.press("Tab");
    await page.keyboard.type("Pelo teclado");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { level: 1, name: /Cobrança de R\$\s12,34/ }).waitFor();

    expect(inDialog).toMatchObject({ tag: "input", inDialog: true });
    expect(afterEscape).toMatchObject({ tag: "button", text: "Nova cobrança de teste" });
    expect(await page.getByText("Pelo teclado").count()).toBe(1);
  });
});
