// The lab as a learner uses it: a level opened by a link, the
// wrong statement it starts with graded and failing with a counterexample
// they can open in the timeline, their fix graded and passing, a broken
// statement answered in words with the page still working, and the
// completion events a course records. Against the real `leasefence serve`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { SHOTS, done, serving, watched } from "./harness.mjs";

const site = serving();

const FINISH = `UPDATE jobs SET state = 'done'
 WHERE id = :id AND owner = :owner AND token = :token AND attempts = :attempt
   AND state = 'leased' AND :now < lease_until AND :now < deadline`;

// The queue's own claim, as a learner would type it.
const CLAIM = `UPDATE jobs
   SET state = 'leased', owner = :owner, token = token + 1, attempts = attempts + 1,
       lease_until = MIN(:now_plus_lease, deadline)
 WHERE seq = (SELECT seq FROM jobs WHERE state IN ('pending', 'leased')
                AND (state = 'pending' OR lease_until <= :now) ORDER BY seq LIMIT 1)
RETURNING id, qty, owner, token, attempts, lease_until`;

/** A page with the lab open at `level`, recording `leasefence:complete`. */
async function lab(level, lang) {
  const page = await watched(site, `/#v=1&lab=${level}&lang=${lang}`, { viewport: { width: 1280, height: 900 } }, ".lf-lab[open] textarea");
  await page.evaluate(() => {
    window.completed = [];
    document.addEventListener("leasefence:complete", (event) => window.completed.push(event.detail));
  });
  return page;
}

// Grading says so first, then answers two frames later: wait for the answer.
const grade = async (page, sql) => {
  if (sql !== undefined) await page.fill(".lf-lab textarea", sql);
  await page.click(".lf-lab [data-action=lab-grade]");
  await page.waitForSelector(".lf-lab-answer [data-passed]");
  return page.textContent(".lf-lab-answer");
};

test("the finish level: the id-only start fails with a counterexample, the fenced finish passes", async () => {
  const page = await lab("finish", "en");
  assert.match(await page.inputValue(".lf-lab textarea"), /^UPDATE jobs SET state = 'done' WHERE id = :id$/);
  // Every text the answer shows, in order: "grading" comes first.
  await page.evaluate(() => {
    window.said = [];
    new MutationObserver(() => window.said.push(document.querySelector(".lf-lab-answer")?.textContent ?? ""))
      .observe(document.querySelector(".lf-lab"), { childList: true, subtree: true, characterData: true });
  });
  const failed = await grade(page);
  const said = await page.evaluate(() => window.said.filter((text) => text));
  assert.equal(said[0], "Grading on every ordering…", `the answer says it is grading first: ${JSON.stringify(said.slice(0, 2))}`);
  assert.match(failed, /Not yet: in “[^”]+”, ordered as below, your statement parts from the queue's at event \d+/);
  assert.match(failed, /The queue's statement refuses it \(nothing changes\); yours accepts it \(the job is done\)\./);
  // And why the queue refused it: the current row's lease had ended.
  assert.match(failed, /Why the queue did so: [^.]*lease_until/);
  assert.match(failed, /Checked: \d+ orderings of \d+ scenarios\./);
  await page.locator(".lf-lab").screenshot({ path: `${SHOTS}/lab-failed-1280-en.png` });
  // The counterexample opens in the timeline, standing before the event
  // where the two part: the next step is the queue's refusal.
  await page.click(".lf-lab [data-action=lab-open]");
  await page.waitForSelector(".lf [data-event]");
  const rows = await page.$$eval(".lf [data-event]", (rows) => rows.map((row) => row.getAttribute("data-result")));
  assert.equal(rows.at(-1), null, "the disagreeing event is still to come");
  await page.uncheck(".lf [data-action=predict]").catch(() => {});
  await page.click(".lf [data-action=step]");
  const after = await page.$$eval(".lf [data-event]", (rows) => rows.map((row) => row.getAttribute("data-result")));
  assert.equal(after.at(-1), "rejected", "the queue refuses the finish the learner's statement accepted");
  // The learner's own fix passes, and the level is marked.
  const passed = await grade(page, FINISH);
  assert.match(passed, /Passed \(attempt 2\): in \d+ orderings of \d+ scenarios, your statement did what the queue's does at every event\./);
  assert.match(await page.textContent(".lf-lab [data-arg=finish]"), /✓/);
  const completed = await page.evaluate(() => window.completed);
  assert.deepEqual(completed.map(({ level, passed, attempts }) => ({ level, passed, attempts })),
    [{ level: "finish", passed: false, attempts: 1 }, { level: "finish", passed: true, attempts: 2 }]);
  assert.ok(completed[1].checked.orderings > 1000, "the event says what was checked");
  // The statement is kept: the address carries it, and the panel opened
  // afresh on another visit shows it again (localStorage).
  assert.match(await page.evaluate(() => location.hash), /&lab=finish&sql=[\w-]+/);
  const again = await page.context().newPage();
  await again.goto(`${site.base}/#v=1&lang=en`);
  await again.click(".lf .lf-lab summary");
  await again.waitForSelector(".lf-lab[open] textarea");
  assert.equal(await again.inputValue(".lf-lab textarea"), FINISH);
  await again.close();
  await done(page);
});

test("the boundary level in Korean: <= fails at the lease's end; a broken statement is answered in words", async () => {
  const page = await lab("boundary", "ko");
  assert.match(await page.inputValue(".lf-lab textarea"), /:now <= lease_until/);
  const failed = await grade(page);
  assert.match(failed, /아직 통과하지 못했습니다\. “[^”]+”의 아래 실행 순서에서 \d+번째 이벤트/);
  assert.match(failed, /큐의 문장은 이 완료 요청을 거절합니다\(아무것도 바뀌지 않습니다\)\. 내 문장은 이 완료 요청을 수락합니다/);
  const refused = await grade(page, "UPDATE jobs SET state = 'done' WHERE id = :id; DELETE FROM jobs");
  assert.match(refused, /채점하지 못했습니다: SQL 문장을 정확히 하나만 써야 합니다/);
  const outside = await grade(page, "UPDATE jobs SET state = 'done' WHERE id = (SELECT name FROM sqlite_schema)");
  assert.match(outside, /sqlite_master 테이블은 사용할 수 없습니다\. 이 문장이 다룰 수 있는 것은 jobs 테이블뿐입니다/);
  const stopped = await grade(page, "UPDATE jobs SET state = 'finished' WHERE id = :id");
  // SQLite's complaint in Korean: the constraint named, its expression
  // quoted as written, none of SQLite's English words left.
  assert.match(stopped, /그 이벤트에서 내 문장이 실패했습니다: SQLite가 이 문장을 거절했습니다\. `CHECK` 제약에 어긋나는 값입니다: `state IN \(/);
  assert.doesNotMatch(stopped, /constraint failed/);
  // The learner's text survives every answer, and the page still steps.
  assert.equal(await page.inputValue(".lf-lab textarea"), "UPDATE jobs SET state = 'finished' WHERE id = :id");
  await page.locator(".lf-lab").screenshot({ path: `${SHOTS}/lab-stopped-1280-ko.png` });
  await page.click(".lf [data-action=step]");
  await done(page);
});

test("a link the page cannot read says what it left out, in the learner's language", async () => {
  const page = await watched(site, "/#v=2&chapter=quarantine&lang=ko&step=x", { viewport: { width: 1280, height: 900 } });
  assert.equal(await page.textContent(".lf-notice"), "링크의 일부를 읽지 못해 빼고 열었습니다: v=2, step=x");
  assert.equal(await page.$eval("select[data-action=chapter]", (el) => el.value), "quarantine", "the rest of the link is read");
  await done(page);
});

test("the claim level: the uncapped claim is stopped by the schema's deadline check, the queue's claim passes", async () => {
  const page = await lab("claim", "en");
  assert.match(await page.inputValue(".lf-lab textarea"), /lease_until = :now_plus_lease/);
  const failed = await grade(page);
  assert.match(failed, /At that event your statement failed: SQLite says: CHECK constraint failed: lease_until IS NULL OR lease_until <= deadline/);
  const passed = await grade(page, CLAIM);
  assert.match(passed, /Passed \(attempt 2\)/);
  assert.match(await page.textContent(".lf-lab [data-arg=claim]"), /✓/);
  await done(page);
});

test("the transaction level: reading before BEGIN IMMEDIATE hands one token to two workers, shown statement by statement; the lock first passes", async () => {
  const page = await lab("transaction", "ko");
  const start = await page.inputValue(".lf-lab textarea");
  assert.ok(start.indexOf("SELECT") < start.indexOf("BEGIN IMMEDIATE"), `the box starts reading before BEGIN: ${start}`);
  const failed = await grade(page);
  assert.match(failed, /“두 작업자가 업무 하나를 동시에 선점”/);
  assert.match(failed, /B는 snack-1을 선점합니다\(token=1/, "B holds the token A holds");
  // The interleaving opens in the statement panel, the queue's claims
  // beside the script, with the lock lane; stepping to the end tells the
  // token handed out twice.
  await page.click(".lf-lab [data-action=lab-open]");
  await page.waitForSelector(".lf-statements[open] .lf-side");
  const sides = await page.$$eval(".lf-statements .lf-side h4", (els) => els.map((el) => el.textContent));
  assert.ok(sides.some((text) => text.includes("내 선점 스크립트")), `the learner's side is named: ${JSON.stringify(sides)}`);
  assert.equal(await page.$eval(".lf-statements select[data-action=race]", (el) => el.selectedOptions[0]?.textContent), "내 선점 스크립트(실습)");
  await page.click(".lf-statements [data-action=stmt][data-arg=end]");
  const verdict = await page.textContent(".lf-statements");
  assert.match(verdict, /A, B 모두 snack-1의 token=1을 받았습니다/);
  await page.screenshot({ path: `${SHOTS}/lab-transaction-1280-ko.png`, fullPage: false });
  // The lock taken before the read passes.
  const fixed = start.replace(/\nBEGIN IMMEDIATE;/, "").replace(/^SELECT/, "BEGIN IMMEDIATE;\nSELECT");
  const passed = await grade(page, fixed);
  assert.match(passed, /통과\(채점 2회째\)/);
  assert.match(await page.textContent(".lf-lab [data-arg=transaction]"), /✓/);
  await done(page);
});

test("hints come one question at a time and keep what the learner typed, as does a visit to another level", async () => {
  const page = await lab("finish", "ko");
  assert.equal(await page.$$eval(".lf-lab-hints li", (items) => items.length), 0, "no hint before one is asked for");
  const typed = "UPDATE jobs SET state = 'done' WHERE id = :id AND owner = :owner";
  await page.fill(".lf-lab textarea", typed);
  await page.click(".lf-lab [data-action=lab-hint]");
  const first = await page.$$eval(".lf-lab-hints li", (items) => items.map((item) => item.textContent));
  assert.equal(first.length, 1, "one hint per ask");
  assert.match(first[0], /\?$/, `a hint is a question: ${first[0]}`);
  assert.equal(await page.inputValue(".lf-lab textarea"), typed, "the typed statement survives the hint");
  // Every hint asked for, then the button is gone.
  while (await page.$(".lf-lab [data-action=lab-hint]")) await page.click(".lf-lab [data-action=lab-hint]");
  const all = await page.$$eval(".lf-lab-hints li", (items) => items.length);
  assert.ok(all >= 3, `${all} hints`);
  // Another level, then back: the ungraded statement is still there.
  await page.click(".lf-lab [data-action=lab-level][data-arg=claim]");
  await page.click(".lf-lab [data-action=lab-level][data-arg=finish]");
  assert.equal(await page.inputValue(".lf-lab textarea"), typed, "the statement left on another level is kept");
  await page.locator(".lf-lab").screenshot({ path: `${SHOTS}/lab-hints-1280-ko.png` });
  await done(page);
});
