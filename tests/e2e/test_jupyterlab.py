"""The labs in a real browser: JupyterLab served as a learner gets it, driven by headless Chromium.

JupyterLab runs on a free port with a token, in a temporary copy of labs/ and of the Week 1
solutions. For each notebook the test opens it, checks that opening left it unmodified, runs all
cells from the Run menu, waits for the kernel to be idle with every cell run, saves it, and reads
the saved file: no error output (a lab's assignment stops at its first check, with the check's
verdict and no traceback), figures rendered as images, widgets rendered, the checks' pass
messages. A screenshot of each notebook goes to build/e2e/.

Run it with `python3.11 tasks.py e2e` (installs Chromium, its driver and Selenium when missing).
Without them the tests are skipped, with the reason; with COMPANION_E2E_REQUIRED=1 (set by
`tasks.py e2e`) a missing piece is a failure instead.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "build" / "e2e"
CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("COMPANION_CHROMEDRIVER", "/usr/bin/chromedriver")
RUN_TIMEOUT = 300

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.notebook]


def _missing() -> str | None:
    """Why the browser test cannot run here, or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[e2e]', or run `python3.11 tasks.py e2e`)"
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            return f"{path} not found (apt-get install {package}, or run `python3.11 tasks.py e2e`)"
    if shutil.which("jupyter", path=str(Path(sys.executable).parent)) is None:
        return "jupyter is not installed next to this python (pip install -e '.[labs]')"
    return None


@pytest.fixture(scope="module")
def lab_server(tmp_path_factory):
    """JupyterLab on a free port, serving a temporary copy of labs/ and solutions/week1/."""
    reason = _missing()
    if reason:
        if os.environ.get("COMPANION_E2E_REQUIRED") == "1":
            pytest.fail(f"the browser test cannot run: {reason}")
        pytest.skip(f"browser test skipped: {reason}")
    sys.path.insert(0, str(ROOT))
    from tasks import write_lab_settings

    write_lab_settings(Path(sys.prefix))  # as `tasks.py lab` does: no news pop-up, no update check
    base = tmp_path_factory.mktemp("e2e")
    served = base / "served"
    shutil.copytree(ROOT / "labs", served / "labs")
    shutil.copytree(ROOT / "solutions" / "week1", served / "solutions" / "week1")
    port, token = _free_port(), uuid.uuid4().hex
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(base / "config"),
               JUPYTERLAB_WORKSPACES_DIR=str(base / "ws"), JUPYTER_PREFER_ENV_PATH="1", PYTHONPATH=str(ROOT),
               PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    command = [str(Path(sys.executable).parent / "jupyter"), "lab", "--no-browser", f"--port={port}",
               "--ip=127.0.0.1", f"--ServerApp.token={token}", f"--ServerApp.root_dir={served}",
               "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
    log = open(base / "jupyter.log", "w")
    server = subprocess.Popen(command, cwd=served, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_for_server(url, token, server, base / "jupyter.log")
        yield {"url": url, "token": token, "root": served}
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


@pytest.fixture(scope="module")
def browser(lab_server):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000",
                     "--disable-gpu"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(120)
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        yield driver
    finally:
        driver.quit()


def test_a_week1_lab_opens_clean_runs_without_errors_and_shows_its_figure_and_widget(lab_server, browser):
    notebook = _open_and_run(lab_server, browser, "labs/week1/C2_W1_Lab_1_basic_tensors.ipynb")
    assert _errors(notebook) == []
    assert _count(notebook, "image/png") >= 1, "no figure was stored as an image"
    assert browser.find_elements("css selector", ".jp-OutputArea .jp-RenderedImage img"), "no figure shown"
    widgets = browser.find_elements("css selector", ".jp-OutputArea .widget-slider")
    assert widgets, "no widget rendered"


def test_the_week1_assignment_solution_passes_every_check_in_the_browser(lab_server, browser):
    notebook = _open_and_run(lab_server, browser, "solutions/week1/C2W1_Assignment.ipynb")
    assert _errors(notebook) == []
    passed = [line for line in _stdout(notebook).splitlines() if line.endswith("public tests passed")]
    assert len(passed) == 7, passed


def test_the_blank_week1_assignment_stops_at_its_first_check_with_a_verdict(lab_server, browser):
    notebook = _open_and_run(lab_server, browser, "labs/week1/C2W1_Assignment.ipynb")
    errors = _errors(notebook)
    assert len(errors) == 1, errors  # Run All stops at the first failing cell
    assert errors[0]["ename"] == "CheckFailed"
    shown = "\n".join(errors[0]["traceback"])
    assert "tf_constant: public test 1 of 3 failed: it returned None." in shown
    assert "Traceback" not in shown and "graders/" not in shown
    assert browser.find_elements("xpath", "//*[contains(@class, 'jp-OutputArea')]//*[contains(text(), "
                                          "'public test 1 of 3 failed')]"), "the verdict is not shown"


# -- driving JupyterLab ------------------------------------------------------------------------

def _open_and_run(server: dict, browser, relative: str) -> dict:
    """Open `relative`, check it opened unmodified, Run All, wait until done, save; the saved JSON."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as when
    from selenium.webdriver.support.ui import WebDriverWait

    name = Path(relative).stem
    browser.get(f"{server['url']}/lab/tree/{relative}?token={server['token']}&reset")
    wait = WebDriverWait(browser, 120)
    try:
        wait.until(when.presence_of_element_located((By.CSS_SELECTOR, ".jp-NotebookPanel .jp-Cell")))
        _wait_until(lambda: _kernel_idle(server, browser), 120, "the kernel to start")
        time.sleep(1)  # let JupyterLab finish anything it does after the kernel connected
        assert not _dirty(browser), f"{relative} was marked as modified just by opening it"
        assert not browser.find_elements(By.XPATH, "//*[contains(text(), 'official Jupyter news')]"), (
            "JupyterLab asked about its news: the lab settings of tasks.py were not applied")
        _menu(browser, "Run", "Run All Cells")
        _wait_until(lambda: _all_run(browser) and _kernel_idle(server, browser), RUN_TIMEOUT,
                    f"every cell of {relative} to run")
        _menu(browser, "File", "Save Notebook")
        _wait_until(lambda: not _dirty(browser), 30, f"{relative} to be saved")
    finally:
        browser.save_screenshot(str(SHOTS / f"{name}{'-lab' if relative.startswith('labs/') else ''}.png"))
    return json.loads((server["root"] / relative).read_text())


def _menu(browser, top: str, item: str) -> None:
    from selenium.webdriver.common.by import By

    browser.find_element(By.XPATH, f"//li[contains(@class, 'lm-MenuBar-item')]"
                                   f"[.//div[normalize-space(text())='{top}']]").click()
    browser.find_element(By.XPATH, f"//li[contains(@class, 'lm-Menu-item')]"
                                   f"[.//div[normalize-space(text())='{item}']]").click()


def _all_run(browser) -> bool:
    """No cell is queued or running ([*]) and one ran at least; after an error Run All unqueues the rest."""
    prompts = [element.text.strip() for element in browser.find_elements(
        "css selector", ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputArea-prompt")]
    return not any("*" in prompt for prompt in prompts) and any(any(c.isdigit() for c in p) for p in prompts)


def _kernel_idle(server: dict, browser) -> bool:
    request = urllib.request.Request(f"{server['url']}/api/kernels", headers={"Authorization":
                                                                              f"token {server['token']}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        kernels = json.loads(response.read())
    return bool(kernels) and all(kernel.get("execution_state") == "idle" for kernel in kernels)


def _dirty(browser) -> bool:
    return bool(browser.find_elements("css selector", ".jp-mod-current.jp-mod-dirty, "
                                                      ".lm-TabBar-tab.jp-mod-current.jp-mod-dirty"))


def _wait_until(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.5)
    raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")


def _wait_for_server(url: str, token: str, server: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise AssertionError(f"jupyter lab exited with {server.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=5):
                return
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"jupyter lab did not answer within 120 s:\n{log.read_text()[-3000:]}")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# -- reading the saved notebook --------------------------------------------------------------

def _errors(notebook: dict) -> list[dict]:
    return [output for cell in notebook["cells"] for output in cell.get("outputs", [])
            if output.get("output_type") == "error"]


def _count(notebook: dict, mime: str) -> int:
    return sum(mime in output.get("data", {}) for output in _outputs(notebook))


def _stdout(notebook: dict) -> str:
    return "".join("".join(output.get("text", "")) for output in _outputs(notebook)
                   if output.get("output_type") == "stream" and output.get("name") == "stdout")


def _outputs(notebook: dict) -> list[dict]:
    return [output for cell in notebook["cells"] for output in cell.get("outputs", [])]
