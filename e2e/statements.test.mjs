// The statement panel end to end: in its
// chapter a claim race and a send race are stepped on one clock, the real
// queue beside the naive one, with the write lock's lane;
// the timeline on screen taken apart the same way, following the
// timeline and coming back from a link; in both languages, on the page
// and in an embed. Screenshots land in target/screenshots/write-lock-*
// and timeline-statements-*.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { SHOTS, done, serving, watched } from "./harness.mjs";

const site = serving();

const open = (path, { width = 1280, height = 900 } = {}) =>
  watched(site, path, { viewport: { width, height } }, ".lf-statements[open] .lf-side");


/** One side as the page shows it: lines' states per actor, lane cells. */
const side = (page, kind, scope = ".lf") =>
  page.$eval(`${scope} .lf-side[data-side=${kind}]`, (el) => ({
    actors: [...el.querySelectorAll(".lf-actors > div")].map((actor) => ({
      name: actor.querySelector("h5").textContent,
      states: [...actor.querySelectorAll("li")].map((li) => li.dataset.state),
    })),
    lane: [...el.querySelectorAll(".lf-lock tr")].slice(1).map((row) => ({
      actor: row.querySelector("th").textContent,
      // Who holds or waits at each moment (the time between moments
      // aside); the mark of the latest column aside.
      cells: [...row.querySelectorAll("td:not(.lf-gap)")].map((td) =>
        [...td.classList].filter((name) => name !== "lf-latest").join(" ") || "-"),
    })),
    lock: el.querySelector(".lf-lock-text").textContent,
    holding: el.querySelector(".lf-holding").textContent,
    verdict: el.querySelector(".lf-harm-note, .lf-ok")?.textContent ?? null,
    harm: el.querySelector(".lf-harm-note") !== null,
  }));

const position = (page, scope = ".lf") => page.$eval(`${scope} .lf-statements .lf-position`, (el) => el.textContent);

describe("statement panel", () => {
  test("stepping statements: B's BEGIN IMMEDIATE waits on the lock lane while A holds it", async () => {
    const page = await open("/#chapter=write-lock&lang=en&predict=0");
    assert.equal(await position(page), "Step 0 of 11");
    const step = page.locator(".lf-statements [data-action=stmt][data-arg=step]");
    await step.click();
    await step.click();
    assert.equal(await position(page), "Step 2 of 11: both sides at 1 ms");
    const real = await side(page, "real");
    assert.deepEqual(real.actors.map((actor) => actor.name), ["A", "B"]);
    assert.deepEqual(real.actors[0].states, ["done", "next", "next", "next", "next"], "A's BEGIN ran; B's wait came after");
    assert.equal(real.actors[1].states[0], "waits", "B's BEGIN IMMEDIATE waits");
    assert.deepEqual(real.lane.map((row) => [row.actor, row.cells.slice(0, 3)]), [
      ["A", ["lf-hold", "lf-hold", "-"]],
      ["B", ["-", "lf-wait", "-"]],
    ]);
    assert.equal(real.lock, "A holds the write lock; B waits.");
    // The keys step statements while the focus is in the panel.
    await step.focus();
    await page.keyboard.press("End");
    assert.equal(await position(page), "Step 11 of 11: both sides at 10 ms");
    assert.equal(await page.$eval(".lf-position:not(.lf-statements *)", (el) => el.textContent), "Step 0 of 5",
      "the timeline did not move");
    await page.keyboard.press("ArrowLeft");
    assert.equal(await position(page), "Step 10 of 11: both sides at 9 ms");
    await page.screenshot({ path: `${SHOTS}/write-lock-steps-1280-en.png`, fullPage: true });
    await done(page);
  });

  test("the naive claim hands token 1 to both workers; the real one to A alone", async () => {
    const page = await open("/#chapter=write-lock&lang=en&predict=0");
    await page.locator(".lf-statements [data-action=stmt][data-arg=end]").click();
    const [real, naive] = [await side(page, "real"), await side(page, "naive")];
    assert.equal(naive.holding, "In the workers' memory: A → snack-1 token=1 · B → snack-1 token=1");
    assert.equal(naive.harm, true);
    assert.match(naive.verdict, /token=1 of snack-1: one fencing token handed out 2 times/);
    assert.equal(real.holding, "In the workers' memory: A → snack-1 token=1");
    assert.equal(real.harm, false);
    // Each naive statement is a transaction of its own: a write holds the
    // lock for its own column, a read none, nothing from a read to a write.
    // Its four statements end at 3 ms; its lane goes on, on the one clock
    // both sides share, to the real side's 10 ms.
    const idle = Array(7).fill("-");
    assert.deepEqual(naive.lane.map((row) => [row.actor, row.cells]), [
      ["A", ["-", "-", "lf-hold", "-", ...idle]],
      ["B", ["-", "-", "-", "lf-hold", ...idle]],
    ]);
    assert.deepEqual(await page.$$eval(".lf-statements .lf-lock", (lanes) =>
      lanes.map((lane) => lane.querySelector("tr").textContent)), Array(2).fill("ms012345678910"),
    "both lanes have the same columns, one per millisecond");
    assert.equal(naive.lock, "Nobody holds the write lock.", "at 10 ms the naive side's writes are long over");
    await done(page);
  });

  test("the naive claim's write holds the lock for itself alone, said in both languages", async () => {
    for (const lang of ["en", "ko"]) {
      for (const width of [360, 1280]) {
        for (const scheme of ["light", "dark"]) {
          const page = await open(`/#chapter=write-lock&lang=${lang}&predict=0`, { width, height: 900 });
          await page.emulateMedia({ colorScheme: scheme });
          const step = page.locator(".lf-statements [data-action=stmt][data-arg=step]");
          for (let n = 0; n < 3; n += 1) await step.click();
          const naive = await side(page, "naive");
          assert.deepEqual(naive.lane.map((row) => row.cells.slice(0, 3)), [["-", "-", "lf-hold"], ["-", "-", "-"]],
            `${lang} ${width}: A's write holds the lock in its own column`);
          assert.doesNotMatch(naive.lock, /Nobody holds|아무도/, `${lang}: the lane does not say the lock is free`);
          // Where the sides do not fit side by side, show the naive one.
          if (width === 360) await page.locator(".lf-side-switch button").nth(1).click();
          await page.locator(".lf-statements").screenshot({
            path: `${SHOTS}/write-lock-naive-write-${width}-${lang}-${scheme}.png`,
          });
          await done(page);
        }
      }
    }
  });

  test("a send inside the transaction keeps the producer's enqueue and another worker's claim waiting; after COMMIT it does not", async () => {
    const page = await open("/#chapter=write-lock&lang=en&predict=0");
    await page.selectOption(".lf-statements select[data-action=race]", "send");
    assert.equal(await position(page), "Step 0 of 28");
    await page.locator(".lf-statements [data-action=stmt][data-arg=end]").click();
    const [real, naive] = [await side(page, "real"), await side(page, "naive")];
    assert.equal(naive.harm, true);
    assert.match(naive.verdict, /waited 296 ms and B's claim \d+ ms/);
    assert.equal(real.harm, false);
    for (const actor of ["C", "B"]) {
      assert.ok(naive.lane.find((row) => row.actor === actor).cells.includes("lf-wait"), `${actor} waits on the naive lane`);
      assert.ok(!real.lane.find((row) => row.actor === actor).cells.includes("lf-wait"), `${actor} never waits on the real lane`);
    }
    // The time between moments is drawn, as wide as it
    // lasted (up to a limit), with what the lock did then: the long wait
    // is the widest cell of the producer's row.
    const gaps = await page.$$eval(".lf-side[data-side=naive] .lf-lock tr:first-child th.lf-gap", (cells) =>
      cells.map((cell) => ({ label: cell.textContent, width: cell.getBoundingClientRect().width })));
    const widest = gaps.reduce((a, b) => (b.width > a.width ? b : a));
    const narrowest = gaps.reduce((a, b) => (b.width < a.width ? b : a));
    assert.ok(Number(widest.label.slice(1)) > 100 && widest.width > narrowest.width * 2,
      `a long span is drawn wider than a short one: ${JSON.stringify(gaps)}`);
    const waitingThrough = await page.$$eval(".lf-side[data-side=naive] .lf-lock tr", (rows) =>
      rows.find((row) => row.querySelector("th").textContent === "C")
        .querySelectorAll("td.lf-gap.lf-wait").length);
    assert.ok(waitingThrough > 0, "the producer's wait fills the time between moments");
    await page.screenshot({ path: `${SHOTS}/write-lock-send-1280-en.png`, fullPage: true });
    await done(page);
  });

  test("the chapter in both languages at 360 and 1280 px, with no page-wide sideways scroll", async () => {
    for (const lang of ["en", "ko"]) {
      for (const width of [360, 1280]) {
        const page = await open(`/#chapter=write-lock&lang=${lang}&predict=0`, { width, height: 800 });
        for (let i = 0; i < 4; i++) await page.locator(".lf-statements [data-arg=step]").click();
        // Course point 22: the lock is a model, and the real race is a test.
        const panel = await page.textContent(".lf-statements");
        assert.match(panel, lang === "ko" ? /쓰기 잠금은 모형.*이 프로젝트의 테스트/s : /write lock here is a model.*a test of this project/s);
        assert.doesNotMatch(panel, /crates\/|\.rs\b/, "no repository path in learner text");
        if (lang === "ko") {
          assert.equal(await position(page), "단계 4/11: 양쪽 모두 3ms 시각");
          assert.equal((await side(page, "real")).lock, "A가 쓰기 잠금을 잡고 있고 B가 기다립니다.");
        }
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px at ${width} px (${lang})`);
        await page.locator(".lf-statements").screenshot({ path: `${SHOTS}/write-lock-${width}-${lang}.png` });
        await done(page);
      }
    }
  });

  test("other chapters: the panel opens on request", async () => {
    const page = await site.browser.newPage();
    await page.goto(`${site.base}/#chapter=canonical&lang=ko&predict=0`);
    await page.waitForSelector(".lf [data-event]");
    assert.equal(await page.$(".lf-statements[open]"), null, "closed at first");
    await page.click(".lf-statements summary");
    await page.waitForSelector(".lf-statements[open] .lf-side");
    assert.equal(await position(page), "단계 0/11");
    await page.close();
  });

  test("this timeline, statement by statement: its own events at their own times", async () => {
    const page = await open("/#chapter=write-lock&lang=en&predict=0");
    await page.selectOption(".lf-statements select[data-action=race]", "timeline");
    const total = Number((await position(page)).match(/of (\d+)/)[1]);
    await page.locator(".lf-statements [data-action=stmt][data-arg=end]").click();
    const [real, naive] = [await side(page, "real"), await side(page, "naive")];
    assert.deepEqual(real.actors.map((actor) => actor.name), ["A", "B", "C"], "the chapter's actors");
    assert.equal(real.harm, false);
    assert.equal(naive.harm, true);
    assert.match(naive.verdict, /A, B each hold token=1 of snack-1/);
    assert.ok(real.lane.find((row) => row.actor === "B").cells.includes("lf-wait"), "B waits for A's lock at 0 ms");
    // One header cell per instant, over that instant's statements.
    const instants = await page.$$eval(".lf-side[data-side=real] .lf-lock tr:first-child th:not(.lf-gap)",
      (cells) => cells.slice(1).map((th) => [th.textContent, th.colSpan]));
    assert.deepEqual(instants.map(([time]) => time), ["0", "5", "10", "306"], "the chapter's own instants");
    assert.equal(instants.reduce((sum, [, span]) => sum + span, 0), total, "a column per step of the panel");
    await page.screenshot({ path: `${SHOTS}/timeline-statements-1280-en.png`, fullPage: true });
    // Another timeline starts the panel over on it.
    await page.selectOption("select[data-action=chapter]", "restart-same-name");
    await page.waitForFunction(() => document.querySelector(".lf-statements .lf-position").textContent.startsWith("Step 0 of"));
    const restarted = await side(page, "real");
    assert.ok(restarted.actors.some((actor) => actor.name === "A-restarted"), "the new chapter's actors");
    await done(page);
  });

  test("a link brings back the timeline race and its place, in Korean at 360 and 1280 px", async () => {
    for (const width of [360, 1280]) {
      const page = await open("/#chapter=restart-same-name&lang=ko&stmt=timeline.6&predict=0", { width, height: 800 });
      assert.match(await position(page), /^단계 6\/\d+: 양쪽 모두 \d+ms 시각$/);
      assert.equal(await page.$eval(".lf-statements select[data-action=race]", (el) => el.value), "timeline");
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px at ${width} px`);
      await page.locator(".lf-statements").screenshot({ path: `${SHOTS}/timeline-statements-${width}-ko.png` });
      await done(page);
    }
  });

  test("where both sides do not fit, a switch shows one at a time; where they do, both show and the switch hides", async () => {
    const shown = (page) => page.$$eval(".lf-statements .lf-side", (sides) =>
      sides.filter((el) => el.checkVisibility()).map((el) => el.dataset.side));
    const pressed = (page) => page.$$eval(".lf-side-switch button", (buttons) =>
      buttons.map((b) => `${b.textContent}:${b.getAttribute("aria-pressed")}`));
    const narrow = await open("/#chapter=write-lock&lang=ko&predict=0", { width: 360, height: 800 });
    assert.deepEqual(await shown(narrow), ["real"]);
    assert.deepEqual(await pressed(narrow), ["실제 선점:true", "조회 후 갱신하는 선점:false"]);
    await narrow.getByRole("button", { name: "조회 후 갱신하는 선점" }).click();
    assert.deepEqual(await shown(narrow), ["naive"]);
    assert.deepEqual(await pressed(narrow), ["실제 선점:false", "조회 후 갱신하는 선점:true"]);
    // Stepping keeps the side picked; the switch names the race's sides.
    await narrow.locator(".lf-statements [data-arg=step]").click();
    assert.deepEqual(await shown(narrow), ["naive"]);
    await narrow.selectOption(".lf-statements select[data-action=race]", "timeline");
    assert.deepEqual(await pressed(narrow), ["실제 큐:false", "조회 후 갱신하는 선점:true"]);
    // A language switch rebuilds the page: the side picked stays.
    await narrow.locator("[data-action=lang]").click();
    await narrow.waitForSelector(".lf[lang=en] .lf-statements[open] .lf-side[data-side=naive]");
    assert.deepEqual(await shown(narrow), ["naive"]);
    assert.deepEqual(await pressed(narrow), ["Real queue:false", "read-then-write claim:true"]);
    // What a step did comes first: the open panel follows the step card.
    assert.equal(await narrow.$eval(".lf-step", (step) =>
      Boolean(step.compareDocumentPosition(document.querySelector(".lf-statements")) & Node.DOCUMENT_POSITION_FOLLOWING)), true);
    await done(narrow);
    const wide = await open("/#chapter=write-lock&lang=en&predict=0", { width: 1280, height: 800 });
    assert.deepEqual(await shown(wide), ["real", "naive"]);
    assert.equal(await wide.locator(".lf-side-switch").isVisible(), false);
    await done(wide);
  });

  test("while predicting, the timeline race shows only the events already seen, and follows each answer", async () => {
    const page = await open("/#chapter=write-lock&lang=en", { width: 1280, height: 900 });
    await page.selectOption(".lf-statements select[data-action=race]", "timeline");
    assert.match(await position(page), /^Step 0 of 0$/, "nothing to take apart before the first answer");
    assert.match(await page.textContent(".lf-statements .lf-cut"), /While you predict/);
    // Answer A's claim: its statements join the race.
    await page.getByRole("button", { name: "Step forward" }).click();
    await page.locator(".lf-prompt [data-arg=accept]").click();
    // A's claim alone: BEGIN IMMEDIATE, the two sweeps, the claim, COMMIT.
    assert.match(await position(page), /^Step 0 of 5$/, "A's claim is taken apart once answered, and only it");
    assert.match(await page.textContent(".lf-statements .lf-cut"), /: 1 of \d+\.$/);
    // Predicting off: the whole timeline, and no cut.
    await page.uncheck(".lf [data-action=predict]");
    assert.doesNotMatch(await position(page), /of 5$/, "not predicting: every event");
    assert.equal(await page.isVisible(".lf-statements .lf-cut"), false);
    await done(page);
  });

  test("a link to a place in the panel opens the page at the panel", async () => {
    for (const [hash, atPanel] of [["chapter=write-lock&lang=ko&predict=0&stmt=timeline.9", true], ["chapter=write-lock&lang=ko", false]]) {
      const page = await open(`/#${hash}`, { width: 360, height: 800 });
      const top = await page.$eval(".lf-statements", (el) => el.getBoundingClientRect().top);
      if (atPanel) {
        assert.ok(Math.abs(top) < 2, `the panel's top is at ${top}px, expected 0 (${hash})`);
        // The keys step its statements: ← goes back from 9 to 8.
        assert.equal(await page.evaluate(() => document.activeElement.matches(".lf-statements > summary")), true);
        await page.keyboard.press("ArrowLeft");
        assert.match(await position(page), /^단계 8\/\d+: 양쪽 모두 \d+ms 시각$/);
      } else {
        assert.equal(await page.evaluate(() => scrollY), 0, `the page scrolled without a place (${hash})`);
      }
      await done(page);
    }
  });

  test("step buttons with nothing to do at an end say so, and keep the focus", async () => {
    const page = await open("/#chapter=write-lock&lang=en&predict=0", { width: 1280, height: 800 });
    const idle = (scope) => page.$$eval(`${scope} button[aria-disabled=true]`, (buttons) =>
      buttons.map((b) => b.dataset.arg ?? b.dataset.action));
    assert.deepEqual(await idle(".lf-statements .lf-controls"), ["reset", "back"]);
    const player = "[role=group][aria-label='Timeline controls']";
    assert.deepEqual(await idle(player), ["reset", "back"]);
    await page.locator(`${player} [data-action=end]`).click();
    assert.deepEqual(await idle(player), ["step", "end"]);
    // At the end, play starts over, and says so.
    assert.equal(await page.getAttribute(`${player} [data-action=play]`, "aria-label"), "Play again from the start");
    const end = page.locator(".lf-statements [data-arg=end]");
    await end.click();
    assert.deepEqual(await idle(".lf-statements .lf-controls"), ["step", "end"]);
    assert.equal(await end.evaluate((el) => el === document.activeElement), true);
    // The keys still step back from the focused button.
    await page.keyboard.press("ArrowLeft");
    assert.deepEqual(await idle(".lf-statements .lf-controls"), []);
    await done(page);
  });

  test("SQL reads and copies as written, and a wrapped line goes on further in than its own start", async () => {
    const page = await open("/#chapter=write-lock&lang=ko&predict=0", { width: 360, height: 800 });
    // Step to the claim's choose-and-take UPDATE on the real side.
    const sql = page.locator(".lf-side[data-side=real] pre.lf-naive-sql");
    for (let i = 0; i < 12 && !/SET state = 'leased'/.test(await sql.textContent().catch(() => "")); i++) {
      await page.locator(".lf-statements [data-arg=step]").click();
    }
    const { lines, copied, wraps } = await sql.evaluate((pre) => {
      const lines = [...pre.children].map((line) => line.textContent);
      const wraps = [...pre.children].map((line) => {
        const text = line.firstChild;
        const spaces = text.data.length - text.data.trimStart().length;
        const at = (from, to) => {
          const range = document.createRange();
          range.setStart(text, from);
          range.setEnd(text, to);
          return range.getClientRects();
        };
        // Where the line's own text starts (after its leading spaces), and
        // where each of its wrapped rows starts.
        const starts = at(spaces, spaces + 1)[0].left;
        const rows = [...new Set([...at(spaces, text.data.length)].map((box) => Math.round(box.top)))];
        const lefts = rows.slice(1).map((top) => {
          for (let i = spaces; i < text.data.length; i++) {
            const box = at(i, i + 1)[0];
            if (Math.round(box.top) === top && text.data[i] !== " ") return box.left;
          }
          return null;
        });
        return { spaces, starts, lefts };
      });
      return { lines, copied: pre.innerText, wraps };
    });
    assert.ok(lines.length > 3, `the claim's UPDATE has its lines: ${JSON.stringify(lines)}`);
    assert.equal(copied, lines.join("\n"), "innerText: one line per line, no blank ones");
    const wrapped = wraps.filter((line) => line.lefts.length > 0 && line.spaces > 0);
    assert.ok(wrapped.length > 0, `an indented line wraps at 360 px: ${JSON.stringify(wraps)}`);
    for (const line of wrapped) {
      for (const left of line.lefts) {
        assert.ok(left > line.starts, `a wrapped row starts right of its line's own start: ${JSON.stringify(line)}`);
      }
    }
    await done(page);
  });

  test("in an embed, on its own element and language", async () => {
    const page = await site.browser.newPage();
    await page.goto(`${site.base}/embed-example.html`);
    await page.waitForSelector("[data-scenario=late-delivery] [data-event]");
    await page.evaluate(async () => {
      const host = document.createElement("div");
      host.setAttribute("data-leasefence", "");
      host.setAttribute("data-scenario", "write-lock");
      host.setAttribute("lang", "ko");
      // Not predicting: a predicting learner's timeline race shows only
      // the events already seen.
      host.setAttribute("data-predict", "off");
      host.id = "mine";
      document.body.append(host);
      const { mountAll } = await import("./pkg/embed.js");
      await mountAll(host.parentElement);
    });
    // A lesson shows one view at a time: the statement panel, its last
    // scene's, is one press of the view switcher away.
    await page.locator("#mine .lf-panes [data-arg=statements]").click();
    await page.waitForSelector("#mine .lf-statements[open] .lf-side");
    await page.locator("#mine .lf-statements [data-arg=end]").click();
    const naive = await side(page, "naive", "#mine");
    assert.equal(naive.harm, true);
    assert.match(naive.verdict, /token=1을 받았습니다/);
    // The embed's own timeline, taken apart: the same verdicts, in Korean.
    await page.selectOption("#mine .lf-statements select[data-action=race]", "timeline");
    await page.locator("#mine .lf-statements [data-arg=end]").click();
    const [real, ownNaive] = [await side(page, "real", "#mine"), await side(page, "naive", "#mine")];
    assert.equal(real.harm, false);
    assert.equal(ownNaive.harm, true);
    assert.match(ownNaive.verdict, /A, B 모두 snack-1의 token=1을 받았습니다/);
    await page.close();
  });
});
