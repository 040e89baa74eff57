// The course points that run other designs beside the queue, on screen
//, each run by the core: #9, at the instant A's lease
// ends and B reclaims its job, the lease's end read three ways (the
// queue's gives the job to one worker, a finish that reads the end with
// `<=` to two, a claim that reads it with `<` to none); #1, the designs
// the course turns down (a claim that deletes the job, one that leaves it
// visible) beside the queue's claim.
// Screenshots: target/screenshots/readings-*, designs-*.
import { test } from "node:test";
import assert from "node:assert/strict";
import { SHOTS, done, serving, watched } from "./harness.mjs";

const site = serving();

test("the boundary point draws one worker, two valid holders and a gap, each reading's changed comparison marked (R5)", async () => {
  const says = {
    en: [/exactly one worker may work on snack-1: B/, /both A and B may work on snack-1/, /nobody may work on snack-1/],
    ko: [/snack-1을 맡을 수 있는 작업자는 B 한 명입니다/, /A와 B 모두 snack-1을 맡을 수 있습니다/, /아무도 snack-1을 맡지 못하는 빈틈이 생깁니다/],
  };
  for (const colorScheme of ["light", "dark"]) {
    for (const width of [360, 1280]) {
      for (const lang of ["en", "ko"]) {
        const page = await watched(site, `/#v=1&chapter=expiry-boundary&step=5&predict=0&lang=${lang}`, {
          viewport: { width, height: 900 },
          locale: lang,
          colorScheme,
        });
        const point = page.locator(".lf-step [data-point=one_boundary]");
        const readings = await point.locator(".lf-run").evaluateAll((items) =>
          items.map((item) => ({
            count: item.dataset.count,
            changed: [...item.querySelectorAll(".lf-conditions code")].map((code) => code.classList.contains("lf-changed")),
            said: item.querySelector(".lf-said").textContent,
          })),
        );
        assert.deepEqual(
          readings.map(({ count, changed }) => ({ count, changed })),
          [
            { count: "one", changed: [false, false] },
            { count: "two", changed: [true, false] },
            { count: "gap", changed: [false, true] },
          ],
          `${lang}: (who may work, which comparison each reading changed)`,
        );
        readings.forEach(({ said }, i) => assert.match(said, says[lang][i], `${lang}, reading ${i}`));
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px at ${width} px (${lang})`);
        await point.screenshot({ path: `${SHOTS}/readings-${lang}-${width}-${colorScheme}.png` });
        await done(page);
      }
    }
  }
});

test("the designs point draws the queue's row kept, the deleted job lost and the visible one taken twice (R1, R11)", async () => {
  const says = {
    en: [/snack-1 stays in the table, leased to A until 1000 ms/, /The table no longer has snack-1/, /A and B both took snack-1/],
    ko: [/snack-1은 1000ms까지 A에게 맡겨진 채/, /테이블에는 더 이상 snack-1이 없고/, /A와 B 모두 snack-1을 가져갔습니다/],
  };
  for (const [width, colorScheme] of [[360, "dark"], [1280, "light"]]) {
    for (const lang of ["en", "ko"]) {
      const page = await watched(site, `/#v=1&chapter=polling-cannot-steal&step=2&predict=0&lang=${lang}`, {
        viewport: { width, height: 900 },
        locale: lang,
        colorScheme,
      });
      const point = page.locator(".lf-step [data-point=why_leased]");
      const runs = await point.locator(".lf-run").evaluateAll((items) =>
        items.map((item) => ({
          fate: item.dataset.fate,
          row: item.querySelector(".lf-row-after").textContent,
          said: item.querySelector(".lf-said").textContent,
        })),
      );
      assert.deepEqual(runs.map(({ fate }) => fate), ["kept", "lost", "shared"], lang);
      assert.match(runs[0].row, /state = leased, owner = A, token = 1, lease_until = 1000/, lang);
      assert.match(runs[2].row, /state = pending, owner = null, token = 2/, lang);
      runs.forEach(({ said }, i) => assert.match(said, says[lang][i], `${lang}, design ${i}`));
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px at ${width} px (${lang})`);
      await point.screenshot({ path: `${SHOTS}/designs-${lang}-${width}-${colorScheme}.png` });
      await done(page);
    }
  }
});
