// The playground end to end, in Debian's Chromium driven by playwright-core,
// against the real `leasefence serve`. Run by `make e2e` (part of `make test`):
//   node --test e2e/
// Screenshots land in target/screenshots/. Timings are measured apart, by
// `make bench-page` (e2e/budgets.mjs), not here.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { ROOT, SHOTS, base64url, done, serving, watched } from "./harness.mjs";


const site = serving();

/** A page that fails the test (`done`) on any console error or uncaught exception. */
const open = (path, { width = 1280, height = 900, lang = "en-US", colorScheme = "light" } = {}) =>
  watched(site, path, { viewport: { width, height }, locale: lang, colorScheme });


const results = (page, scope = ".lf") =>
  page.$$eval(`${scope} [data-event]`, (rows) => rows.map((row) => row.getAttribute("data-result")));
const live = (page, scope = ".lf") => page.$eval(`${scope} .lf-live`, (el) => el.textContent);

/** The page's labels for a golden replay document. */
function labels(expected) {
  return expected.results.map((result) => {
    if (result.do === "claim") return result.claim ? "claimed" : "empty";
    if (result.do === "finish") return result.accepted ? "accepted" : "rejected";
    if (result.do === "send") return result.reason ? "no_claim" : result.applied ? "applied" : "duplicate";
    return "enqueued";
  });
}

/** A chapter's folder (`chapters/<NN>-<id>/`). */
const folder = (id) => `${ROOT}chapters/${readdirSync(`${ROOT}chapters`).find((name) => name.replace(/^\d\d-/, "") === id)}`;
const golden = (name) => JSON.parse(readFileSync(`${folder(name)}/expected.json`, "utf8"));

describe("the playground", () => {
  test("on a phone, what a step did sits right under the step controls; on a desktop, beside the timeline", async () => {
    for (const colorScheme of ["light", "dark"]) {
      for (const lang of ["en", "ko"]) {
        for (const width of [360, 1280]) {
          const page = await open(`/#v=1&chapter=canonical&lang=${lang}&predict=0`, { width, colorScheme });
          await page.locator(".lf-controls [data-action=step]").click();
          const top = (selector) => page.$eval(selector, (el) => el.getBoundingClientRect().top);
          const bottom = (selector) => page.$eval(selector, (el) => el.getBoundingClientRect().bottom);
          const [controls, step, lanes, timeline] = [await bottom(".lf-controls"), await top(".lf-step"),
            await top(".lf-lanes"), await top(".lf-timeline")];
          if (width === 360) {
            // Only the predict switch between them.
            assert.ok(step - controls < 120, `${lang}: the step card ${step - controls}px below the controls`);
            assert.ok(step < lanes && lanes < timeline, `${lang}: then the lanes, then the timeline`);
          } else {
            assert.ok(lanes < step && Math.abs(step - timeline) < 2, `${lang}: the step card beside the timeline, under the lanes`);
          }
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px at ${width} px (${lang})`);
          await page.screenshot({ path: `${SHOTS}/step-near-controls-${width}-${lang}-${colorScheme}.png`, fullPage: true });
          await done(page);
        }
      }
    }
  });

  test("canonical chapter by keyboard: A's late finish is refused and announced", async () => {
    const page = await open("/#chapter=canonical&lang=en&predict=0");
    // The full page focuses its playground: the keys work without a click.
    await page.waitForFunction(() => document.activeElement?.matches(".lf"));
    assert.deepEqual(await results(page), [null, null, null]);
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
    assert.deepEqual(await results(page), ["claimed", "claimed", "rejected"]);
    assert.match(await live(page), /A's finish was refused: the row's token is 2, the stamp's is 1/);
    assert.equal(await page.$eval(".lf [data-event='2']", (el) => el.getAttribute("aria-current")), "step");
    assert.match(await page.textContent(".lf-step"), /0 rows changed → rejected/);
    await page.keyboard.press("ArrowLeft");
    assert.deepEqual(await results(page), ["claimed", "claimed", null]);
    await page.keyboard.press("Home");
    assert.deepEqual(await results(page), [null, null, null]);
    await page.keyboard.press("End");
    assert.deepEqual(await results(page), ["claimed", "claimed", "rejected"]);
    await page.screenshot({ path: `${SHOTS}/canonical-1280-en.png`, fullPage: true });
    await done(page);
  });

  test("predicting by keyboard: a question takes the focus but no answer, Space does not answer, the arrows go on after one", async () => {
    const page = await open("/#chapter=canonical&lang=en&predict=1");
    await page.waitForFunction(() => document.activeElement?.matches(".lf"));
    const focused = () => page.evaluate(() => {
      const el = document.activeElement;
      return { tag: el?.tagName, action: el?.dataset.action ?? null, inPlayground: !!el?.closest(".lf"), prompt: !!el?.matches(".lf-prompt") };
    });
    await page.keyboard.press("ArrowRight");
    assert.match(await page.textContent(".lf-prompt"), /A asks for a job at 0 ms/);
    assert.deepEqual(await focused(), { tag: "DIV", action: null, inPlayground: true, prompt: true }, "the question has the keyboard, no answer does");
    await page.keyboard.press(" ");
    assert.doesNotMatch(await page.textContent(".lf-prompt"), /Right|Not quite/, "Space answered the question");
    assert.deepEqual(await results(page), [null, null, null]);
    // An answer is chosen: Tab to it, Enter.
    await page.keyboard.press("Tab");
    assert.equal((await focused()).action, "guess", "Tab reaches the first answer");
    await page.keyboard.press("Enter");
    assert.match(await page.textContent(".lf-prompt"), /Right|Not quite/, "Enter on an answer answers");
    const after = await focused();
    assert.equal(after.inPlayground, true, `after an answer the keyboard stays in the playground: ${JSON.stringify(after)}`);
    await page.keyboard.press("ArrowRight");
    assert.match(await page.textContent(".lf-prompt"), /B asks for a job at 1000 ms/, "the arrow steps after an answer");
    assert.equal((await focused()).prompt, true, "the next question has the keyboard");
    await done(page);
  });

  test("controls are found by their accessible names", async () => {
    const page = await open("/#chapter=late-delivery&lang=en&predict=0");
    const step = page.getByRole("button", { name: "Step forward" });
    for (let i = 0; i < 4; i++) await step.click();
    assert.deepEqual(await results(page), ["claimed", "applied", "claimed", "duplicate", null, null]);
    await page.getByRole("button", { name: "Step back" }).click();
    assert.deepEqual((await results(page)).slice(0, 4), ["claimed", "applied", "claimed", null]);
    await page.getByRole("button", { name: "Go to end" }).click();
    assert.deepEqual(await results(page), labels(golden("late-delivery")));
    assert.match(await page.textContent(".lf-receiver"), /snack-1 → 2/);
    await done(page);
  });

  test("every chapter replays in the page exactly as its golden document", async () => {
    const page = await open("/#lang=en&predict=0");
    const chapters = await page.$$eval(".lf select[data-action=chapter] option", (options) =>
      options.map((option) => option.value).filter((value) => value !== "sandbox"));
    assert.ok(chapters.length >= 8, `chapters: ${chapters}`);
    for (const chapter of chapters) {
      await page.selectOption(".lf select[data-action=chapter]", chapter);
      await page.getByRole("button", { name: "Go to end" }).click();
      assert.deepEqual(await results(page), labels(golden(chapter)), chapter);
    }
    await done(page);
  });

  test("a shared link restores its scenario, and the copy button makes one", async () => {
    const scenario = {
      jobs: [{ id: "tea-7", qty: 3, deadline: 900 }],
      events: [
        { at: 0, worker: "W1", do: "claim", lease_ms: 300 },
        { at: 300, worker: "W2", do: "claim", lease_ms: 300 },
        { at: 301, worker: "W1", do: "finish" },
        { at: 400, worker: "W2", do: "finish" },
      ],
    };
    const page = await open(`/#scenario=${base64url(JSON.stringify(scenario))}&lang=en`);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    assert.equal(await page.$eval(".lf select[data-action=chapter]", (el) => el.value), "sandbox");
    await page.focus(".lf");
    await page.keyboard.press("End");
    assert.deepEqual(await results(page), ["claimed", "claimed", "rejected", "accepted"]);
    await page.getByRole("button", { name: "Copy link" }).click();
    await page.waitForFunction(() => document.querySelector(".lf-share-status").textContent !== "");
    const link = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(link, /#v=1&scenario=/);
    const again = await open(link.slice(site.base.length));
    assert.deepEqual(await results(again), ["claimed", "claimed", "rejected", "accepted"], "the link keeps the step too");
    await done(again);
    await done(page);
  });

  test("HTML and script in actor names are shown as text and never run", async () => {
    const evil = '<img src=x onerror="window.__pwned=1">';
    const script = "<script>window.__pwned=2</script>";
    const scenario = {
      jobs: [{ id: "<b>job</b>", qty: 1, deadline: 5000 }],
      events: [
        { at: 0, worker: evil, do: "claim", lease_ms: 100 },
        { at: 100, worker: script, do: "claim", lease_ms: 100 },
        { at: 150, worker: evil, do: "finish" },
      ],
    };
    const page = await open(`/#scenario=${base64url(JSON.stringify(scenario))}&lang=en`);
    await page.focus(".lf");
    await page.keyboard.press("End");
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.equal(await page.$$eval(".lf img, .lf script, .lf b", (nodes) => nodes.length), 0);
    assert.ok((await page.textContent(".lf [data-event='0'] .lf-who")).includes(evil));
    assert.ok((await live(page)).includes(evil));
    await done(page);
  });

  test("the language follows the URL and switches with the button", async () => {
    const page = await open("/#chapter=canonical&lang=ko&predict=0");
    assert.equal(await page.getAttribute(".lf", "lang"), "ko");
    assert.match(await page.textContent(".lf-narration"), /재선점/);
    await page.focus(".lf");
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
    assert.match(await live(page), /거절되었습니다/);
    await page.screenshot({ path: `${SHOTS}/canonical-1280-ko.png`, fullPage: true });
    await page.getByRole("button", { name: "English" }).click();
    await page.waitForSelector(".lf[lang=en]"); // the English texts are fetched first (e2e/texts.test.mjs)
    assert.match(await page.textContent(".lf-narration"), /reclaims/);
    assert.deepEqual(await results(page), ["claimed", "claimed", "rejected"], "the position survives");
    await done(page);
  });

  test("the editor names the bad field inline and applies nothing until valid", async () => {
    const page = await open("/#chapter=canonical&lang=en&predict=0");
    await page.click(".lf-editor summary");
    const editor = page.locator(".lf-editor textarea");
    const good = await editor.inputValue();
    await editor.fill(good.replace('"lease_ms": 1000', '"lease_ms": -5'));
    await page.getByRole("button", { name: "Apply" }).click();
    assert.match(await page.textContent(".lf-editor-status"), /events\[0\]\.lease_ms/);
    assert.equal(await page.$$eval(".lf [data-event]", (rows) => rows.length), 3, "nothing half-applied");
    await page.getByRole("button", { name: "+ finish" }).click();
    await page.getByRole("button", { name: "Apply" }).click();
    assert.match(await page.textContent(".lf-editor-status"), /events\[0\]\.lease_ms/, "still refused");
    await editor.fill(good);
    await page.getByRole("button", { name: "+ finish" }).click();
    await page.getByRole("button", { name: "Apply" }).click();
    assert.match(await page.textContent(".lf-editor-status"), /Applied: 4 events/);
    assert.equal(await page.$$eval(".lf [data-event]", (rows) => rows.length), 4);
    await done(page);
  });

  test("a Korean learner reads the editor's refusal in Korean, with its place", async () => {
    const page = await open("/#chapter=canonical&lang=ko&predict=0");
    await page.click(".lf-editor summary");
    const editor = page.locator(".lf-editor textarea");
    const good = await editor.inputValue();
    await editor.fill(good.replace('"at": 1001', '"at": 999'));
    await page.click(".lf-editor [data-action=apply-editor]");
    assert.match(
      await page.textContent(".lf-editor-status"),
      /events\[2\]\.at: 999는 앞 이벤트의 시각 1000보다 이릅니다/,
    );
    await editor.fill("{");
    await page.click(".lf-editor [data-action=apply-editor]");
    assert.match(await page.textContent(".lf-editor-status"), /\(문서 전체\): JSON 문법 오류/);
    assert.equal(await page.$$eval(".lf [data-event]", (rows) => rows.length), 3, "nothing applied");
    await done(page);
  });

  test("fencing off vs on: id only overwrites B's claim, id + owner a restarted worker's", async () => {
    const page = await open("/#chapter=fencing-off-vs-on&lang=en&predict=0");
    await page.focus(".lf");
    await page.keyboard.press("End");
    assert.equal(await page.$eval(".lf-compare", (el) => el.open), true);
    assert.equal(await page.$$eval(".lf-compare .lf-harm", (rows) => rows.length), 2, "A's and C's old run's finishes");
    assert.match(await page.textContent(".lf-compare"), /accepted \(done, owner B, token 2\)/);
    await page.selectOption(".lf select[data-action=guard]", "id_and_owner");
    const harmed = await page.$$eval(".lf-compare .lf-harm th", (cells) => cells.map((cell) => cell.textContent));
    assert.deepEqual(harmed, ["3001 ms · C"], "the owner guard stops A but not C's old run");
    await page.screenshot({ path: `${SHOTS}/compare-1280-en.png`, fullPage: true });
    await done(page);
  });

  test("dragging the finish flips the verdict exactly at lease_until", async () => {
    const page = await open("/#chapter=canonical&lang=en&predict=0");
    await page.click(".lf-boundary summary");
    const slider = page.locator(".lf-boundary-range");
    const max = await slider.getAttribute("max");
    const verdictAt = async (at) => {
      await slider.fill(String(at));
      assert.equal(await slider.getAttribute("max"), max, "the range holds still while dragging");
      return page.textContent(".lf-boundary-value");
    };
    assert.match(await verdictAt(999), /finish at 999 ms → ✓ Accepted/);
    // The narration is told again from the new verdict.
    assert.match(await page.textContent(".lf-narration"), /A's finish at 999 ms is accepted\./);
    // The moved timeline is the learner's own now, and its past stays marked.
    assert.equal(await page.$eval(".lf select[data-action=chapter]", (el) => el.value), "sandbox");
    assert.deepEqual(await results(page), ["claimed", "accepted", null]);
    assert.match(await verdictAt(1000), /finish at 1000 ms → ✗ Rejected/);
    assert.match(await page.textContent(".lf-narration"), /A's finish at 1000 ms is refused/);
    assert.match(await verdictAt(1001), /✗ Rejected/);
    await done(page);
  });

  test("a longer lease saves the late finish and empties the reclaim; the course's warning is beside it", async () => {
    for (const [lang, accepted, warning] of [
      ["en", /lease 1002 ms → valid while now < 1002 ms → A's finish: ✓ Accepted/, /not a complete solution/],
      ["ko", /임대를 1002ms로 주면 now < 1002ms인 동안 유효합니다. A의 완료 요청 판정: ✓ 수락/, /완결된 해결책이 아닙니다/],
    ]) {
      const page = await open(`/#chapter=canonical&lang=${lang}&predict=0`);
      await page.click(".lf-boundary summary");
      assert.match(await page.textContent(".lf-lease-note"), warning);
      const slider = page.locator(".lf-lease-range");
      assert.equal(await slider.inputValue(), "1000", "A's lease as the chapter has it");
      await slider.fill("1002");
      assert.match(await page.textContent(".lf-lease-value"), accepted);
      assert.deepEqual(await results(page), ["claimed", "empty", "accepted"], "B's reclaim at 1000 ms finds nothing");
      // The narration tells the new verdict, and the cost of the longer lease is on screen.
      assert.match(await page.textContent(".lf-narration"), lang === "ko" ? /“늦게 돌아온 전달자” 단원을 바꿨습니다.*1001ms에 보낸 A의 완료 요청은 수락됩니다/ : /You changed “The late worker”\. Now: A's finish at 1001 ms is accepted\./);
      assert.match(await page.textContent(".lf-lease-cost"), /1002/);
      assert.equal(await page.$eval(".lf select[data-action=chapter]", (el) => el.value), "sandbox");
      await slider.fill("1001");
      assert.deepEqual(await results(page), ["claimed", "empty", "rejected"], "at 1001 ms a lease until 1001 has ended");
      await page.screenshot({ path: `${SHOTS}/lease-1280-${lang}.png`, fullPage: true });
      await done(page);
    }
  });

  test("predict, then reveal: claims and finishes, the narration after the last answer", async () => {
    const page = await open("/#chapter=canonical&lang=en");
    await page.check(".lf [data-action=predict]");
    assert.match(await page.textContent(".lf-narration"), /appears once you have answered the last question/, "the narration would give it away");
    assert.doesNotMatch(await page.textContent(".lf-tagline") + await page.textContent(".lf-footer"), /[Rr]efuse|fences stale/, "the tagline and the footer would give it away");
    const step = page.getByRole("button", { name: "Step forward" });
    await step.click();
    assert.match(await page.textContent(".lf-prompt"), /A asks for a job at 0 ms/);
    await page.getByRole("button", { name: "Gets a job" }).click();
    await step.click();
    assert.match(await page.textContent(".lf-prompt"), /B asks for a job at 1000 ms/);
    await page.getByRole("button", { name: "Finds nothing" }).click();
    assert.match(await page.textContent(".lf-prompt"), /Not quite: it was claimed/);
    await step.click();
    assert.match(await page.textContent(".lf-prompt"), /A is about to finish/);
    assert.deepEqual(await results(page), ["claimed", "claimed", null], "not revealed before the guess");
    assert.match(await page.textContent(".lf-narration"), /appears once you have answered/);
    await page.getByRole("button", { name: "Rejected" }).click();
    assert.deepEqual(await results(page), ["claimed", "claimed", "rejected"]);
    assert.match(await page.textContent(".lf-prompt"), /Right: it was rejected/);
    assert.match(await page.textContent(".lf-prompt"), /A's finish was refused\. Pick a condition it failed\./);
    assert.match(await page.textContent(".lf-narration"), /appears once you have answered/, "the field is the last question");
    await page.getByRole("button", { name: "token" }).click();
    assert.match(await page.textContent(".lf-narration"), /B reclaims it/, "every answer given: the story");
    assert.match(await page.textContent(".lf-tagline"), /Refuse the late worker's stale "done"/, "every answer given: the course's title");
    await done(page);
  });

  test("after a refusal, which condition it failed: asked, hidden until answered, any failed one right (screenshots field-*)", async () => {
    const looks = [360, 1280].flatMap((width) => ["light", "dark"].flatMap((colorScheme) =>
      ["en", "ko"].map((lang) => ({ width, colorScheme, lang }))));
    for (const { width, colorScheme, lang } of looks) {
      const shot = `${width}-${lang}-${colorScheme}`;
      const page = await open(`/#chapter=canonical&lang=${lang}`, { width, colorScheme });
      await page.check(".lf [data-action=predict]");
      for (const answer of ["accept", "reject", "reject"]) {
        await page.locator(".lf [data-action=step]").click();
        await page.locator(`.lf-prompt [data-arg=${answer}]`).click();
      }
      const fields = await page.$$eval(".lf-prompt [data-action=field]", (buttons) => buttons.map((b) => b.textContent));
      assert.deepEqual(fields, ["id", "owner", "token", "attempt", "state", "lease_until", "deadline"], lang);
      assert.equal(await page.evaluate(() => document.activeElement?.matches(".lf-prompt")), true, "the keyboard is on the question, not on an answer");
      assert.equal(await page.$$eval(".lf-step .lf-reason-chip, .lf-step .lf-differs", (els) => els.length), 0, "nothing names the answer");
      await page.locator(".lf-prompt").screenshot({ path: `${SHOTS}/field-question-${shot}.png` });
      await page.locator(".lf-step").screenshot({ path: `${SHOTS}/field-question-step-${shot}.png` });
      await page.locator(".lf-prompt [data-arg=owner]").click();
      const said = await page.textContent(".lf-prompt");
      const expected = lang === "en"
        ? [/Right: the owner condition failed/, /owner is B, the stamp's is A/, /This finish failed 3 of them: owner, token, attempt\./, /Right so far: 3\/4/]
        : [/맞았습니다\. owner 조건이 충족되지 않았습니다/, /owner는 B인데 표식의 owner는 A/, /충족하지 못한 조건은 3개로, owner, token, attempt입니다/, /4번 중 3번/];
      for (const pattern of expected) assert.match(said, pattern, lang);
      // The chip names the reason in the learner's words; the replay's
      // own code beside it in English only.
      const chip = await page.$eval(".lf-step .lf-reason-chip", (el) => el.textContent);
      assert.equal(chip, lang === "en" ? "token mismatchtoken_mismatch" : "선점 토큰 불일치", "answered: the chip is back");
      await page.locator(".lf-prompt").screenshot({ path: `${SHOTS}/field-answered-${shot}.png` });
      await done(page);
    }
  });

  test("each course point is a step of its chapter, shown in both languages (target/screenshots/point-*)", async () => {
    const points = [
      ["canonical", 1, "claim_result", /"lease_until": 1000/],
      ["canonical", 2, "no_heartbeat", /heartbeat/],
      ["polling-cannot-steal", 2, "why_leased", /leased to A until 1000 ms|1000ms까지 A에게/],
      ["polling-cannot-steal", 3, "visibility_timeout", /visibility timeout/],
      ["quarantine", 3, "rollback_journal", /rollback journal/],
      ["restart-same-name", 2, "tell_apart", /A-restarted/],
      ["restart-same-name", 4, "not_a_credential", /token=?\s?2/],
      ["late-delivery", 4, "receiver_unfenced", /1100/],
    ];
    for (const colorScheme of ["light", "dark"]) {
      for (const width of [360, 1280]) {
        for (const lang of ["en", "ko"]) {
          const page = await open(`/#chapter=canonical&lang=${lang}&predict=0`, { width, colorScheme });
          for (const [chapter, step, key, says] of points) {
            await page.selectOption(".lf select[data-action=chapter]", chapter);
            // A chapter starts at its beginning: there is nothing to go back to.
            assert.equal(await page.locator("[data-action=reset]").getAttribute("aria-disabled"), "true");
            for (let i = 0; i < step; i++) await page.locator("[data-action=step]").click();
            const point = page.locator(`.lf-step [data-point=${key}]`);
            assert.match(await point.textContent(), says, `${key} (${lang})`);
            // One step back, the point is not there yet.
            await page.locator("[data-action=back]").click();
            assert.equal(await page.locator(`.lf-step [data-point=${key}]`).count(), 0, `${key}: only at its place`);
            await page.locator("[data-action=step]").click();
            await point.screenshot({ path: `${SHOTS}/point-${key}-${width}-${lang}-${colorScheme}.png` });
          }
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px at ${width} px (${lang})`);
          await page.locator(".lf-step").screenshot({ path: `${SHOTS}/point-step-${width}-${lang}-${colorScheme}.png` });
          await done(page);
        }
      }
    }
  });

  test("the quiz (course point #23): the learner picks the value that tells two claims apart, and the answer shows every value", async () => {
    // Every claim raises the token and the attempt (R2): both are named,
    // whichever was picked.
    for (const [lang, wrong, right] of [["en", /Not that one\..*token, attempt\./, /Right\..*token, attempt\./], ["ko", /아쉽네요\..*token, attempt입니다\./, /맞았습니다\..*token, attempt입니다\./]]) {
      const page = await open(`/#chapter=restart-same-name&lang=${lang}&predict=0`, { width: 360 });
      for (let i = 0; i < 2; i++) await page.locator("[data-action=step]").click();
      const quiz = page.locator(".lf-step .lf-quiz");
      await quiz.locator("[data-action=quiz][data-arg=owner]").click();
      assert.match(await page.locator(".lf-step .lf-quiz").textContent(), wrong, lang);
      assert.equal(await page.locator(".lf-step [data-action=quiz][data-arg=owner]").getAttribute("aria-pressed"), "true");
      await page.locator(".lf-step [data-action=quiz][data-arg=token]").click();
      const said = await page.locator(".lf-step .lf-quiz").textContent();
      assert.match(said, right, lang);
      assert.match(said, /token: 1과 2로 다름|token: 1 and 2, different/, `${lang}: the tokens side by side`);
      assert.match(said, /attempt: 1과 2로 다름|attempt: 1 and 2, different/, `${lang}: the attempts side by side`);
      await page.locator(".lf-step .lf-quiz").screenshot({ path: `${SHOTS}/quiz-360-${lang}.png` });
      await done(page);
    }
  });

  test("the end of a chapter leads to the next; a chapter whose questions are answered stays marked after a reload", async () => {
    const page = await open("/#chapter=canonical&lang=en&predict=0");
    const marked = () => page.$eval(".lf select[data-action=chapter] option[value=canonical]", (el) => el.textContent);
    await page.getByRole("button", { name: "Go to end" }).click();
    await page.getByRole("button", { name: /^Next chapter: / }).waitFor();
    assert.doesNotMatch(await marked(), /^✓ /, "watched to the end, no question answered: not finished");
    // Predicting, ⇥ stops at the first question; answering all of them
    // finishes the chapter.
    await page.check(".lf [data-action=predict]");
    await page.getByRole("button", { name: "Reset" }).click();
    await page.getByRole("button", { name: "Go to end" }).click();
    assert.match(await page.textContent(".lf-prompt"), /A asks for a job at 0 ms/, "⇥ stops at the first question");
    await page.locator(".lf-prompt [data-arg=accept]").click();
    for (const answer of ["accept", "reject"]) {
      await page.locator(".lf [data-action=step]").click();
      await page.locator(`.lf-prompt [data-arg=${answer}]`).click();
    }
    await page.locator(".lf-prompt [data-arg=token]").click();
    const next = page.getByRole("button", { name: /^Next chapter: / });
    await next.click();
    assert.equal(await page.$eval(".lf select[data-action=chapter]", (el) => el.value), "polling-cannot-steal", "the next chapter in the course's order");
    assert.match(await marked(), /^✓ /, "the finished chapter is marked");
    await page.reload();
    await page.waitForSelector(".lf [data-event]");
    assert.match(await marked(), /^✓ /, "still marked after a reload");
    await done(page);
  });

  test("a click on the lanes crashes a worker from here on, and the link keeps it; a tool that would change nothing is disabled", async () => {
    const page = await open("/#chapter=canonical&lang=en&predict=0");
    await page.getByRole("button", { name: "Step forward" }).click();
    await page.getByRole("button", { name: "A: crash" }).click();
    assert.equal(await page.$eval(".lf select[data-action=chapter]", (el) => el.value), "sandbox");
    assert.equal(await page.$$eval(".lf [data-event]", (rows) => rows.length), 2, "A's finish is gone");
    // B has not run yet: there is nothing to restart (a
    // restart here once let "B-restarted" take A's job at 0 ms).
    const restartB = page.getByRole("button", { name: "B: restart under the same name" });
    assert.equal(await restartB.isDisabled(), true, "no restart before B's first claim");
    await page.getByRole("button", { name: "Step forward" }).click();
    assert.equal(await page.getByRole("button", { name: "B: crash" }).isDisabled(), true, "B has nothing left to crash");
    await restartB.click();
    assert.match(await page.textContent(".lf [data-event='2'] .lf-who"), /B-restarted \(owner B\)/);
    assert.match(page.url(), /scenario=/, "the address carries the changed timeline");
    await page.reload();
    await page.waitForSelector(".lf [data-event]");
    assert.equal(await page.$$eval(".lf [data-event]", (rows) => rows.length), 3, "kept by the link");
    await done(page);
  });

  test("printed, the page is what the learner sees without its controls, tables whole", async () => {
    const page = await open("/#v=1&chapter=canonical&lang=ko&predict=0&step=3", { width: 700 });
    await page.emulateMedia({ media: "print" });
    const shown = (selector) => page.$$eval(selector, (els) => els.filter((el) => el.getClientRects().length > 0).length);
    assert.equal(await shown(".lf :is(button, select, input, textarea)"), 0, "no control is printed");
    assert.ok(await shown(".lf-step table") > 0, "the stamp beside the row is printed");
    assert.ok(await shown(".lf [data-event]") === 3, "every event is printed");
    const outside = await page.$$eval(".lf *", (els) => {
      const right = document.querySelector(".lf").getBoundingClientRect().right;
      return els
        // The live region is 1 px on purpose (read aloud, never seen).
        .filter((el) => !el.closest(".lf-live, .lf-visually-hidden"))
        .filter((el) => el.getClientRects().length > 0 && el.getBoundingClientRect().right > right + 1)
        .map((el) => `${el.tagName}.${el.className} ${(el.textContent ?? "").slice(0, 20)}`);
    });
    assert.deepEqual(outside, [], "everything printed fits the page's width");
    const overrun = await page.$$eval(".lf :is(th, td)", (cells) => cells
      .filter((cell) => cell.getClientRects().length > 0 && cell.scrollWidth > cell.clientWidth + 1)
      .map((cell) => `${cell.textContent}: ${cell.scrollWidth} > ${cell.clientWidth} px`));
    assert.deepEqual(overrun, [], "no cell's words run over the next cell");
    await page.screenshot({ path: `${SHOTS}/print-ko-700.png`, fullPage: true });
    await done(page);
  });

  test("an embed shows its own content until it mounts, and to a reader without JavaScript", async () => {
    const context = await site.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site.base}/embed-example.html`);
    assert.equal(await page.isVisible("[data-scenario=canonical] .fallback"), true, "the fallback, without JavaScript");
    await context.close();
    // With JavaScript, while the module is held back: the fallback shows.
    const waiting = await site.browser.newContext();
    const held = await waiting.newPage();
    let release;
    const gate = new Promise((resolve) => { release = resolve; });
    await held.route("**/pkg/leasefence_first.wasm", async (route) => { await gate; await route.continue(); });
    await held.goto(`${site.base}/embed-example.html`, { waitUntil: "domcontentloaded" });
    assert.equal(await held.isVisible("[data-scenario=canonical] .fallback"), true, "the fallback, until it mounts");
    release();
    await held.waitForSelector("[data-scenario=canonical] [data-event]");
    assert.equal(await held.isVisible("[data-scenario=canonical] .fallback"), false, "hidden by the shadow root once mounted");
    await waiting.close();
  });

  test("the embed example runs two instances with their own language and events", async () => {
    const page = await open("/embed-example.html");
    await page.waitForSelector("[data-scenario=late-delivery] [data-event]");
    const first = "[data-scenario=canonical]";
    const second = "[data-scenario=late-delivery]";
    assert.equal(await page.getAttribute(first, "lang"), "ko");
    assert.equal(await page.getAttribute(second, "lang"), "en");
    // The first opens predicting: ⇥ stops at each question, answered here.
    for (const answer of ["accept", "accept", "reject"]) {
      await page.focus(`${first} .lf`);
      await page.keyboard.press("End");
      await page.locator(`${first} .lf-prompt [data-arg=${answer}]`).click();
    }
    assert.deepEqual(await results(page, first), ["claimed", "claimed", "rejected"]);
    assert.deepEqual(await results(page, second), [null, null, null, null, null, null], "the other instance did not move");
    await page.locator(second).getByRole("button", { name: "Go to end" }).click();
    assert.deepEqual(await results(page, second), labels(golden("late-delivery")));
    assert.deepEqual(await page.$$eval("#events li", (items) => items.map((item) => item.textContent)), [
      "canonical: rejected (token_mismatch)",
      "late-delivery: accepted",
      "late-delivery: rejected (not_leased)",
    ]);
    await page.screenshot({ path: `${SHOTS}/embed-example-1280.png`, fullPage: true });
    await done(page);
  });

  test("the lanes are drawn at their panel's width, and follow it when it changes", async () => {
    const page = await open("/#chapter=canonical&lang=en&step=3&predict=0", { width: 1280, height: 900 });
    // The SVG's user units are the panel's CSS pixels, so its text keeps
    // its size on a phone as on a desktop.
    const widths = () =>
      page.evaluate(() => {
        const body = document.querySelector(".lf-lanes .lf-body");
        const style = getComputedStyle(body);
        const content = body.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        const drawn = Number(document.querySelector(".lf-lanes svg").getAttribute("viewBox").split(" ")[2]);
        return { content: Math.round(content), drawn };
      });
    const wide = await widths();
    assert.ok(Math.abs(wide.drawn - wide.content) <= 1, `drawn at ${wide.drawn}, panel is ${wide.content} px`);
    await page.evaluate(() => {
      window.__steps = 0;
      document.querySelector(".lf").addEventListener("leasefence:step", () => window.__steps++);
    });
    await page.setViewportSize({ width: 700, height: 900 });
    await page.waitForFunction(
      (before) => Number(document.querySelector(".lf-lanes svg").getAttribute("viewBox").split(" ")[2]) !== before,
      wide.drawn,
    );
    const narrow = await widths();
    assert.ok(narrow.content < wide.content, `the panel narrowed: ${wide.content} -> ${narrow.content}`);
    assert.ok(Math.abs(narrow.drawn - narrow.content) <= 1, `drawn at ${narrow.drawn}, panel is ${narrow.content} px`);
    assert.equal(await page.evaluate(() => window.__steps), 0, "a resize is not a step");
    await done(page);
  });

  test("a mistyped chapter shows the first one and warns in the console", async () => {
    const context = await site.browser.newContext();
    const page = await context.newPage();
    const warnings = [];
    page.on("console", (message) => message.type() === "warning" && warnings.push(message.text()));
    await page.goto(`${site.base}/#chapter=expiry-bondary&lang=en&predict=0`);
    await page.waitForSelector(".lf [data-event]");
    assert.equal(await page.$eval(".lf select[data-action=chapter]", (el) => el.value), "canonical");
    assert.ok(
      warnings.some((text) => text.includes('no chapter "expiry-bondary"') && text.includes("expiry-boundary")),
      `warnings: ${JSON.stringify(warnings)}`,
    );
    await context.close();
  });

  test("every chapter at its end, in both languages, as pictures (target/screenshots/chapter-*)", async () => {
    for (const lang of ["en", "ko"]) {
      const page = await open(`/#chapter=canonical&lang=${lang}&predict=0`);
      const chapters = await page.$$eval(".lf select[data-action=chapter] option", (options) =>
        options.map((option) => option.value).filter((value) => value !== "sandbox"));
      for (const chapter of chapters) {
        await page.selectOption(".lf select[data-action=chapter]", chapter);
        await page.locator("[data-action=end]").click();
        assert.equal(await page.$eval(".lf-narration", (el) => el.textContent.length > 0), true, chapter);
        await page.screenshot({ path: `${SHOTS}/chapter-${chapter}-${lang}.png`, fullPage: true });
      }
      await done(page);
    }
  });

  test("readable at 360 px: no page-wide horizontal scroll", async () => {
    for (const lang of ["en", "ko"]) {
      const page = await open(`/#chapter=canonical&lang=${lang}&step=3&predict=0`, { width: 360, height: 780 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px at 360 px (${lang})`);
      await page.screenshot({ path: `${SHOTS}/canonical-360-${lang}.png`, fullPage: true });
      await done(page);
    }
  });
});
