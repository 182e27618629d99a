"""The labs in a real browser: JupyterLab served as a learner gets it, driven by headless Chromium.

Each pytest worker starts JupyterLab with the command `tasks.py lab` runs (`tasks.jupyter_lab_command`:
the venv's lab settings, `--allow-root` as root) on a free port with a token, serving a temporary copy
of labs/ and solutions/, and drives it with its own headless Chromium. For each notebook the test
opens it, checks that opening left it unmodified, runs all cells from the Run menu, waits until no
cell is queued and the kernel is idle, saves it, and then checks the saved file and the page:

- a solution, or a lab with nothing to fill in, ran every code cell with no error output;
- a lab with placeholders stopped (Run All stops at the first error) at its first exercise, in a
  cell from the first `graded` cell to the first check after it, with exactly one error: the
  check's verdict (`CheckFailed` naming the exercise, no traceback), or a TypeError, AttributeError
  or ValueError whose message names `None` (a placeholder left as `None`, used by the code after
  it, e.g. L2's check cell prints the function's result before calling the check); every code cell
  before it ran, none after;
- every figure stored as an image is shown as a loaded <img>, and no figure printed as text only;
- every widget output is a rendered widget (no "Error displaying widget", nothing left loading),
  and one control (slider, else dropdown, toggle buttons or checkbox) driven with the keyboard or
  the mouse changes what the widgets show;
- a cell that ran `fit` without `verbose=0` shows Keras's progress bar, and a notebook that uses
  tqdm shows a finished tqdm bar.

A screenshot of every notebook goes to build/e2e/<same path>.png (also when it passes).

`python3.11 tasks.py e2e` runs every notebook, two at a time (COMPANION_E2E_ALL=1, pytest -n 2).
Without that variable (as in `tasks.py test`, i.e. CI) only CI_SUBSET runs. Without Selenium or
Chromium the tests are skipped, with the reason; with COMPANION_E2E_REQUIRED=1 (set by `tasks.py
e2e`) a missing piece is a failure instead.
"""

from __future__ import annotations

import json
import os
import re
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
ALL = os.environ.get("COMPANION_E2E_ALL") == "1"
# What CI (`tasks.py test`) runs in the browser, chosen to cover each kind of check in about 90 s:
CI_SUBSET = (
    "labs/week1/C2W1_Assignment.ipynb",  # a blank assignment stops at its first check's verdict
    "solutions/week1/C2W1_Assignment.ipynb",  # the same assignment solved: every check passes
    "solutions/week4/C2_W4_Lab_4_one_device_strategy.ipynb",  # fit's progress bar, figures, a slider
    # (the only notebooks whose fit shows its bar are Week 4's Labs 1 and 4; this is the quicker one)
    "labs/lectures/L2_xla.ipynb",  # a lecture lab: a slider before its placeholder, then the verdict
)
NOTEBOOKS = sorted((path.relative_to(ROOT).as_posix() for folder in ("labs", "solutions")
                    for path in (ROOT / folder).rglob("*.ipynb") if ".ipynb_checkpoints" not in path.parts),
                   key=lambda name: ("week4" not in name, name))  # the slow Week 4 ones start first
RUN_TIMEOUT = 600 if ALL else 240  # seconds per notebook, from Run All to idle

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.notebook]


def _missing() -> str | None:
    """Why the browser test cannot run here, or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[e2e]', or run `python3.11 tasks.py e2e`)"
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            return f"{path} not found (apt-get install {package}, or run `python3.11 tasks.py e2e` as root)"
    if shutil.which("jupyter", path=str(Path(sys.executable).parent)) is None:
        return "jupyter is not installed next to this python (pip install -e '.[labs]')"
    return None


@pytest.fixture(scope="module")
def lab_server(tmp_path_factory):
    """JupyterLab as `tasks.py lab` starts it, on a free port, serving a copy of labs/ and solutions/."""
    reason = _missing()
    if reason:
        if os.environ.get("COMPANION_E2E_REQUIRED") == "1":
            pytest.fail(f"the browser test cannot run: {reason}")
        pytest.skip(f"browser test skipped: {reason}")
    import tasks

    base = tmp_path_factory.mktemp("e2e")
    served = base / "served"
    for folder in ("labs", "solutions"):
        shutil.copytree(ROOT / folder, served / folder, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    port, token = _free_port(), uuid.uuid4().hex
    venv = Path(sys.prefix)
    command = tasks.jupyter_lab_command(venv, str(served), [
        "--no-browser", f"--port={port}", "--ip=127.0.0.1", f"--ServerApp.token={token}"])
    # The learner's own Jupyter config and workspaces must not change what the test sees.
    env = dict(tasks.venv_env(venv), JUPYTER_CONFIG_DIR=str(base / "config"),
               JUPYTERLAB_WORKSPACES_DIR=str(base / "ws"))
    log = open(base / "jupyter.log", "w")
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_for_server(url, token, server, base / "jupyter.log")
        yield {"url": url, "token": token, "root": served, "log": base / "jupyter.log"}
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
    driver.set_script_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.mark.parametrize("relative", NOTEBOOKS if ALL else CI_SUBSET)
def test_the_notebook_runs_in_jupyterlab_as_a_learner_sees_it(lab_server, browser, relative):
    shot = SHOTS / Path(relative).with_suffix(".png")
    try:
        notebook = _open_and_run(lab_server, browser, relative)
        stop = _check_errors(relative, notebook)
        _check_figures(browser, notebook)
        _check_progress_bars(browser, notebook)
        _check_widgets(browser, notebook, stop)
    except BaseException:
        _screenshot(browser, shot)
        log = lab_server["log"].read_text(errors="replace")[-2000:]
        print(f"screenshot: {shot}\nlast lines of the JupyterLab log:\n{log}")
        raise
    _screenshot(browser, shot)
    _shut_down_kernels(lab_server)


# -- what a run must show --------------------------------------------------------------------------

def _check_errors(relative: str, notebook: dict) -> int | None:
    """Errors as expected for a solution or a lab (see the module docstring); the cell where Run All
    stopped (None when every cell ran)."""
    cells = notebook["cells"]
    code = [i for i, cell in enumerate(cells) if cell["cell_type"] == "code"]
    errors = [(i, output) for i in code for output in cells[i].get("outputs", [])
              if output.get("output_type") == "error"]
    window = _placeholder_window(cells) if relative.startswith("labs/") else None
    if window is None:
        assert errors == [], f"{relative} has error output: {_describe(errors)}"
        not_run = [i for i in code if cells[i].get("execution_count") is None]
        assert not_run == [], f"code cells {not_run} of {relative} did not run"
        return None
    first_graded, first_check, exercise = window
    assert len(errors) == 1, (f"Run All on {relative} should stop at exactly one error at its first "
                              f"exercise ({exercise}); got {_describe(errors)}")
    (stop, error), = errors
    assert first_graded <= stop <= first_check, (
        f"{relative} failed in cell {stop}, outside its first exercise (graded cell {first_graded} to "
        f"its check in cell {first_check}): {_describe(errors)}")
    shown = "\n".join(error.get("traceback", []))
    if error["ename"] == "CheckFailed":
        assert "check(" in _source(cells[stop]), f"CheckFailed from a cell that calls no check: {stop}"
        assert f"{exercise}:" in shown and "failed" in shown, shown
        assert "Traceback" not in shown and "graders/" not in shown, f"the verdict shows internals:\n{shown}"
    else:
        from_none = error["ename"] in ("TypeError", "AttributeError", "ValueError")
        from_none = from_none and "None" in error["evalue"]
        assert from_none, f"cell {stop} of {relative} failed, not from a placeholder: {_describe(errors)}"
    ran = [i for i in code if cells[i].get("execution_count") is not None]
    assert ran == [i for i in code if i <= stop], f"{relative}: cells run {ran}, expected all up to {stop}"
    return stop


def _placeholder_window(cells: list[dict]) -> tuple[int, int, str] | None:
    """(first graded cell, the first check after it, its exercise) for a lab with placeholders."""
    graded = [i for i, cell in enumerate(cells) if "graded" in cell.get("metadata", {}).get("tags", [])]
    if not graded:
        return None
    first = graded[0]
    check = next(i for i in range(first + 1, len(cells))
                 if cells[i]["cell_type"] == "code" and "check(" in _source(cells[i]))
    return first, check, cells[first]["metadata"].get("companion", {}).get("exercise", "?")


def _check_figures(browser, notebook: dict) -> None:
    stored = sum("image/png" in output.get("data", {}) for output in _outputs(notebook))
    text_only = [output["data"]["text/plain"] for output in _outputs(notebook)
                 if "image/png" not in output.get("data", {})
                 and "".join(output.get("data", {}).get("text/plain", "")).startswith("<Figure size")]
    assert not text_only, f"a figure was printed as text instead of drawn: {text_only}"
    images = browser.execute_script(_JS + "return images();")
    shown = [image for image in images if image["rendered"]]
    assert len(shown) >= stored, f"{stored} figures stored as images, {len(shown)} shown"
    broken = [image for image in images if not image["loaded"]]
    assert not broken, f"images that did not load: {broken}"


def _check_progress_bars(browser, notebook: dict) -> None:
    text = browser.execute_script(_JS + "return panel().textContent;")
    for cell in notebook["cells"]:
        source = _source(cell)
        if cell["cell_type"] != "code" or cell.get("execution_count") is None:
            continue
        if ".fit(" in source and not re.search(r"verbose\s*=\s*(0|False)\b", source):
            printed = "".join("".join(output.get("text", "")) for output in cell.get("outputs", []))
            bar = re.search(r"\d+/\d+ \u2501+", re.sub(r"\x1b\[[0-9;]*m", "", printed))  # Keras 3: 3/3 ━━━━
            assert bar, f"no progress bar from fit in cell:\n{source[:300]}\nprinted:\n{printed[:500]}"
            assert bar.group(0) in text, f"fit's progress bar {bar.group(0)!r} is not shown on the page"
    if any("tqdm" in _source(cell) for cell in notebook["cells"] if cell.get("execution_count")):
        printed = "".join("".join(output.get("text", "")) for output in _outputs(notebook))
        assert re.search(r"100%\|\S*\| (\d+)/\1", printed), "no finished tqdm bar in the output"
        assert re.search(r"100%\|\S*\| (\d+)/\1", text), "tqdm's bar is not shown on the page"


def _check_widgets(browser, notebook: dict, stop: int | None) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    cells = [cell for i, cell in enumerate(notebook["cells"]) if stop is None or i <= stop]
    stored = sum("application/vnd.jupyter.widget-view+json" in output.get("data", {})
                 for cell in cells for output in cell.get("outputs", []))
    uses_widgets = any("widgets." in _source(cell) for cell in cells if cell.get("execution_count"))
    state = browser.execute_script(_JS + "return widgetState();")
    assert not state["problems"], f"widgets not rendered: {state['problems']}"
    assert state["views"] >= stored, f"{stored} widget outputs stored, {state['views']} rendered"
    if not uses_widgets:
        return
    assert state["views"] >= 1, "the notebook builds widgets but none is shown"
    before = browser.execute_script(_JS + "return shown();")
    control = browser.execute_script(_JS + "return control();")
    assert control, "no slider, dropdown, toggle button or checkbox to drive"
    element, kind = control
    if kind == "select":
        choice = Select(element)
        index = [option.is_selected() for option in choice.options].index(True)
        moves = [lambda: choice.select_by_index(index + 1 if index + 1 < len(choice.options) else index - 1)]
    elif kind == "slider":  # the keyboard first (a slider at its maximum only moves left), then the mouse
        element.click()
        moves = [lambda: element.send_keys(Keys.ARROW_RIGHT), lambda: element.send_keys(Keys.ARROW_LEFT),
                 lambda: ActionChains(browser).drag_and_drop_by_offset(element, -60, 0).perform()]
    else:  # a toggle button that is not the current choice, or a checkbox
        moves = [element.click]
    for move in moves:
        move()
        try:
            _wait_until(lambda: browser.execute_script(_JS + "return shown();") != before, 15,
                        f"the widgets' output to change after driving the {kind}")
            return
        except AssertionError:
            continue
    raise AssertionError(f"driving the {kind} changed nothing the widgets show")


# JavaScript run in the page. The notebook panel on show; its output areas; the rendered widgets.
_JS = r"""
const panel = () => document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
const outputs = () => [...panel().querySelectorAll('.jp-OutputArea-output')];
function images() {
  return [...panel().querySelectorAll('.jp-OutputArea-output img')].map(img => {
    img.scrollIntoView({block: 'center'});
    return {src: img.src.slice(0, 60), loaded: img.complete && img.naturalWidth > 0,
            rendered: !!img.closest('.jp-RenderedImage')};
  });
}
function widgetState() {
  const views = outputs().filter(out => out.querySelector('.jupyter-widgets'));
  const problems = outputs().map(out => out.textContent)
      .filter(text => /Error displaying widget|Loading widget|Error rendering/.test(text));
  for (const view of views) {
    view.scrollIntoView({block: 'center'});
    if (view.getBoundingClientRect().height === 0) problems.push('empty: ' + view.innerHTML.slice(0, 200));
  }
  return {views: views.length, problems};
}
function shown() {  // what the widgets display, leaving out the controls' own labels and readouts
  const parts = [];
  for (const node of panel().querySelectorAll('.jupyter-widgets')) {
    const display = '.widget-html, .widget-htmlmath, .widget-label, .widget-output';  // Label: a widget
    if (node.matches(display)) parts.push(node.innerHTML);  // a control's own label is no .jupyter-widgets
    if (node.matches('.widget-image')) parts.push(node.src || (node.querySelector('img') || {}).src);
  }
  for (const img of panel().querySelectorAll('.widget-output img')) parts.push(img.src);
  return parts.join('\n');
}
function control() {
  const first = selector => outputs().map(out => out.querySelector(selector)).find(Boolean);
  const found = [[first('.widget-slider .noUi-handle'), 'slider'],
                 [first('.widget-dropdown select'), 'select'],
                 [first('.widget-toggle-buttons button:not(.mod-active)'), 'button'],
                 [first('.widget-checkbox input'), 'checkbox']].find(([node]) => node);
  if (!found) return null;
  found[0].scrollIntoView({block: 'center'});
  return found;
}
"""


# -- driving JupyterLab ------------------------------------------------------------------------

def _open_and_run(server: dict, browser, relative: str) -> dict:
    """Open `relative`, check it opened unmodified, Run All, wait until done, save; the saved JSON."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as when
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(f"{server['url']}/lab/tree/{relative}?token={server['token']}&reset")
    WebDriverWait(browser, 120).until(when.presence_of_element_located((By.CSS_SELECTOR,
                                                                        ".jp-NotebookPanel .jp-Cell")))
    _wait_until(lambda: _kernel_idle(server), 120, "the kernel to start")
    time.sleep(1)  # let JupyterLab finish anything it does after the kernel connected
    assert not _dirty(browser), f"{relative} was marked as modified just by opening it"
    assert not browser.find_elements(By.XPATH, "//*[contains(text(), 'official Jupyter news')]"), (
        "JupyterLab asked about its news: the lab settings of tasks.py were not applied")
    _menu(browser, "Run", "Run All Cells")
    _wait_until(lambda: _all_run(browser) and _kernel_idle(server), RUN_TIMEOUT,
                f"every cell of {relative} to run")
    time.sleep(0.5)  # the last outputs (widget views, images) reach the page
    _menu(browser, "File", "Save Notebook")
    _wait_until(lambda: not _dirty(browser), 30, f"{relative} to be saved")
    return json.loads((server["root"] / relative).read_text())


def _menu(browser, top: str, item: str) -> None:
    from selenium.webdriver.common.by import By

    browser.find_element(By.XPATH, f"//li[contains(@class, 'lm-MenuBar-item')]"
                                   f"[.//div[normalize-space(text())='{top}']]").click()
    browser.find_element(By.XPATH, f"//li[contains(@class, 'lm-Menu-item')]"
                                   f"[.//div[normalize-space(text())='{item}']]").click()


def _all_run(browser) -> bool:
    """No cell is queued or running ([*]) and one ran at least; after an error Run All unqueues the rest."""
    prompts = browser.execute_script(
        "return [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell "
        ".jp-InputArea-prompt')].map(p => p.textContent.trim());")
    return not any("*" in prompt for prompt in prompts) and any(any(c.isdigit() for c in p) for p in prompts)


def _api(server: dict, path: str, method: str = "GET"):
    request = urllib.request.Request(f"{server['url']}/api/{path}", method=method,
                                     headers={"Authorization": f"token {server['token']}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        body = response.read()
    return json.loads(body) if body else None


def _kernel_idle(server: dict) -> bool:
    try:
        kernels = _api(server, "kernels")
    except OSError:  # jupyter_server answers 500 while a kernel is half started (no last_activity yet)
        return False
    return bool(kernels) and all(kernel.get("execution_state") == "idle" for kernel in kernels)


def _shut_down_kernels(server: dict) -> None:
    """End the notebook's session and kernel, so that the next notebook's kernel is the only one."""
    for session in _api(server, "sessions"):
        _api(server, f"sessions/{session['id']}", method="DELETE")


def _dirty(browser) -> bool:
    return bool(browser.find_elements("css selector", ".jp-mod-current.jp-mod-dirty, "
                                                      ".lm-TabBar-tab.jp-mod-current.jp-mod-dirty"))


def _screenshot(browser, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        browser.save_screenshot(str(path))
    except Exception as error:  # a dead browser must not hide the test's own failure
        print(f"no screenshot: {error}")


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

def _source(cell: dict) -> str:
    return "".join(cell.get("source", ""))


def _outputs(notebook: dict) -> list[dict]:
    return [output for cell in notebook["cells"] for output in cell.get("outputs", [])]


def _describe(errors: list[tuple[int, dict]]) -> str:
    described = [f"cell {i}: {error.get('ename')}: {error.get('evalue', '')[:300]}" for i, error in errors]
    return "; ".join(described) or "no error"
