import { expect, test } from "../support/test.ts";
import { LEGAL_PAGES } from "../support/site";

test.describe("routes", () => {
  const pages = [{ path: "/", title: "The trusted leader in institutional digital asset trading" }, ...LEGAL_PAGES];

  for (const { path, title } of pages) {
    test(`${path} answers 200 and shows its heading`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
    });
  }

  const unknown = [
    ["/nope", "/nope"],
    ["/terms-of-service/extra", "/terms-of-service/extra"],
    ["/a/b?x=1", "/a/b"],
    // a non-ASCII path, as the browser sends it (percent-encoded UTF-8)
    ["/überblick", "/%C3%BCberblick"],
  ] as const;

  for (const [path, logged] of unknown) {
    test(`${path} answers 404 with the 404 page and logs the path`, async ({ page }) => {
      const messages: string[] = [];
      page.on("console", (message) => messages.push(message.text()));
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("404");
      await expect(page.getByText("Oops! Page not found")).toBeVisible();
      const home = page.getByRole("link", { name: "Return to Home" });
      await expect(home).toHaveAttribute("href", "/");
      await expect.poll(() => messages.some((m) => m.includes(logged))).toBe(true);
      await home.click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(pages[0]!.title);
    });
  }
});
