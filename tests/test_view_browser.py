"""The viewer in a real headless browser (Debian's chromium and chromedriver, which .ci/run
installs): open the page, step forward and back with the keyboard, read the table from the DOM,
take a screenshot."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from llcheck.cli import main

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")

# skipped on a machine without them, never in CI, where .ci/run installs them
pytestmark = pytest.mark.skipif(not (CHROMIUM and DRIVER) and not os.environ.get("CI"),
                                reason="needs chromium and chromedriver (apt-get install chromium "
                                       "chromium-driver)")


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1200,900"):
        options.add_argument(flag)
    service = webdriver.ChromeService(executable_path=str(DRIVER))
    driver = webdriver.Chrome(options=options, service=service)
    try:
        yield driver
    finally:
        driver.quit()


def _press(driver: webdriver.Chrome, key: str) -> None:
    driver.find_element(By.TAG_NAME, "body").send_keys(key)


def _hand(driver: webdriver.Chrome, seat: int) -> list[str]:
    cards = driver.find_elements(By.CSS_SELECTOR, f"#table-seat-{seat} .hand .card")
    return [card.get_attribute("data-card") or "" for card in cards]


def test_a_case_steps_forward_and_back(browser: webdriver.Chrome, tmp_path: Path, capsys) -> None:
    page = tmp_path / "case.html"
    assert main(["view", "classic.countess.forced/with-king", "--html", str(page)]) == 0
    browser.get(page.as_uri())
    assert browser.find_element(By.ID, "film-title").text.startswith("classic.countess.forced/with-king")
    assert browser.find_element(By.ID, "step-counter").text == "1 / 3"
    assert sorted(_hand(browser, 0)) == ["Countess", "King"]
    first = browser.find_element(By.CSS_SELECTOR, "#table-seat-0 .hand .card")
    assert "7" in first.text or "6" in first.text  # card faces carry their values
    assert "classic.countess.forced" in browser.find_element(By.ID, "film-clauses").text
    _press(browser, Keys.ARROW_RIGHT)  # the refused King
    assert browser.find_element(By.ID, "step-counter").text == "2 / 3"
    assert "refused" in browser.find_element(By.ID, "frame-note").text
    _press(browser, Keys.ARROW_RIGHT)  # the Countess is played
    assert browser.find_element(By.ID, "step-counter").text == "3 / 3"
    assert _hand(browser, 0) == ["King"]
    discards = browser.find_elements(By.CSS_SELECTOR, "#table-seat-0 .discards .card")
    assert [d.get_attribute("data-card") for d in discards] == ["Countess"]
    assert "seat turn" in (browser.find_element(By.ID, "table-seat-1").get_attribute("class") or "")
    _press(browser, Keys.ARROW_RIGHT)  # the last step stays the last
    assert browser.find_element(By.ID, "step-counter").text == "3 / 3"
    _press(browser, Keys.ARROW_LEFT)
    _press(browser, Keys.ARROW_LEFT)
    assert browser.find_element(By.ID, "step-counter").text == "1 / 3"
    assert sorted(_hand(browser, 0)) == ["Countess", "King"]
    shot = tmp_path / "case.png"
    assert browser.save_screenshot(str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_one_players_view_hides_the_other_hands(browser: webdriver.Chrome, tmp_path: Path) -> None:
    page = tmp_path / "seat.html"
    assert main(["view", "classic.countess.forced/with-king", "--seat", "1", "--html", str(page)]) == 0
    browser.get(page.as_uri())
    assert _hand(browser, 0) == ["hidden", "hidden"]
    assert _hand(browser, 1) == ["Priest"]


def test_a_failing_report_links_to_the_divergence(browser: webdriver.Chrome, tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    mutant = "python:llcheck.mutants.engines:countess_not_forced"
    assert main(["check", "--impl", mutant, "--edition", "classic", "--run", "classic.countess.*",
                 "--json", str(report), "-q"]) == 1
    page = tmp_path / "report.html"
    assert main(["view", str(report), "--html", str(page)]) == 0
    failed = [r for r in json.loads(report.read_text())["results"] if r["status"] == "failed"]
    browser.get(page.as_uri())
    links = browser.find_elements(By.CSS_SELECTOR, "#index a.film-link")
    assert sorted(link.text for link in links) == sorted(r["id"] for r in failed)
    links[0].click()
    parted = browser.find_element(By.ID, "parted")
    assert parted.is_displayed()
    assert "legal_actions" in parted.text
    assert browser.find_element(By.ID, "expected").text != browser.find_element(By.ID, "actual").text
    browser.save_screenshot(str(tmp_path / "parted.png"))


def test_check_html_links_a_fuzzing_difference_to_its_game(browser: webdriver.Chrome, tmp_path: Path) -> None:
    page = tmp_path / "check.html"
    mutant = "python:llcheck.mutants.engines:countess_not_forced"
    assert main(["check", "--impl", mutant, "--edition", "classic", "--run", "fuzz/classic/2p", "--fuzz",
                 "30", "--seed", "1", "--fuzz-dir", str(tmp_path / "fuzz"), "--html", str(page), "-q"]) == 1
    browser.get(page.as_uri())
    [link] = browser.find_elements(By.CSS_SELECTOR, "#index a.film-link")
    assert link.text == "fuzz/classic/2p"
    link.click()
    counter = browser.find_element(By.ID, "step-counter").text
    done, total = map(int, counter.split(" / "))
    assert done == total > 1  # the replay ends where the engine and the rules part
    assert browser.find_element(By.ID, "parted").is_displayed()
    assert "Countess" in browser.find_element(By.ID, "expected").text
    assert "Prince" in browser.find_element(By.ID, "actual").text
    _press(browser, Keys.HOME)
    assert browser.find_element(By.ID, "step-counter").text == f"1 / {total}"
    assert not browser.find_element(By.ID, "parted").is_displayed()
    browser.find_element(By.CSS_SELECTOR, "#back-to-index a").click()
    assert browser.find_element(By.ID, "index").is_displayed()


def test_disputes_html_shows_each_reading_where_they_part(browser: webdriver.Chrome, tmp_path: Path) -> None:
    page = tmp_path / "disputes.html"
    assert main(["disputes", "tr-2019", "nl-2019", "--games", "20", "--html", str(page)]) == 1
    browser.get(page.as_uri())
    links = browser.find_elements(By.CSS_SELECTOR, "a.film-link")  # the clauses a witness game shows
    assert links
    clause = links[0].text
    links[0].click()
    parted = browser.find_element(By.ID, "parted")
    assert parted.is_displayed()
    headings = [h.text for h in parted.find_elements(By.TAG_NAME, "h4")]
    assert headings == ["under tr-2019", "under nl-2019"]
    assert browser.find_element(By.ID, "expected").text != browser.find_element(By.ID, "actual").text
    clauses = browser.find_element(By.ID, "film-clauses").text
    assert f"tr-2019.{clause}" in clauses and f"nl-2019.{clause}" in clauses


def test_a_whole_game_folds_its_many_clauses(browser: webdriver.Chrome, tmp_path: Path) -> None:
    golden = Path(__file__).parent.parent / "conformance" / "golden" / "classic" / "4-players.json"
    page = tmp_path / "golden.html"
    assert main(["view", str(golden), "--html", str(page)]) == 0
    browser.get(page.as_uri())
    box = browser.find_element(By.ID, "clauses-box")
    assert box.get_attribute("open") is None  # folded: the table comes first
    count = int(browser.find_element(By.ID, "clauses-count").text.split()[0])
    assert count > 4
    box.find_element(By.TAG_NAME, "summary").click()
    assert len(browser.find_elements(By.CSS_SELECTOR, "#film-clauses li")) == count
    _press(browser, Keys.END)
    done, total = browser.find_element(By.ID, "step-counter").text.split(" / ")
    assert done == total and "game won by player" in browser.find_element(By.ID, "board").text
