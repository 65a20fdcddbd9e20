import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createMailer, verifyEmailMail } from "../src";

describe("mailer without SMTP", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "lm-mail-test-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test("when a mail is sent, then one JSON file holds sender, recipient, subject, text and HTML", async () => {
    const mailer = createMailer({ smtpUrl: undefined, mailOutboxDir: dir, mailFrom: "LM Pix <no-reply@lm.test>" });

    await mailer.send(
      verifyEmailMail("ana@example.com", "Ana", "http://api.test/v1/me/auth/verify-email?token=abc&x=1"),
    );
    mailer.close();

    const files = await readdir(dir);
    expect(files).toHaveLength(1);
    const mail = JSON.parse(await readFile(path.join(dir, files[0] ?? ""), "utf8"));
    expect(mail.from).toEqual({ address: "no-reply@lm.test", name: "LM Pix" });
    expect(mail.to).toEqual([{ address: "ana@example.com", name: "" }]);
    expect(mail.subject).toBe("Confirm your email address");
    expect(mail.text).toContain("http://api.test/v1/me/auth/verify-email?token=abc&x=1");
    expect(mail.html).toContain('href="http://api.test/v1/me/auth/verify-email?token=abc&amp;x=1"');
  });

  test("when a name carries markup, then the HTML body escapes it", () => {
    const mail = verifyEmailMail("a@example.com", "<script>alert(1)</script>", "http://api.test/x");

    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("&lt;script&gt;");
    expect(mail.text).toContain("<script>");
  });
});
