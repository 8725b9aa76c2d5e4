import { test } from "../support/test.ts";
import { openPage } from "../support/site.ts";

// Every test in this file must fail: they prove that a clean run of the other tests means something.
test.describe("the shared page fixture and openPage fail a test", () => {
  test.fail();

  test("whose page threw an uncaught error", async ({ page }) => {
    await page.goto("/");
    const thrown = page.waitForEvent("pageerror");
    await page.evaluate(() =>
      setTimeout(() => {
        throw new Error("planted");
      }),
    );
    await thrown;
  });

  test("whose page shows the error screen", async ({ page }) => {
    await page.goto("/privacy-policy");
    await page.evaluate(() => {
      const heading = document.createElement("h2");
      heading.textContent = "Unexpected Application Error!";
      document.querySelector("main")!.append(heading);
    });
  });

  test("when openPage meets an uncaught error while the page opens", async ({ page }) => {
    await page.addInitScript(() =>
      setTimeout(() => {
        throw new Error("planted while opening");
      }),
    );
    await openPage(page, "/cookie-policy");
  });
});
