"""A save refused for blank boxes, in real Chromium on a 390x844 phone: in Third Hand the points
boxes are far below the summary at the top of the form, so the message that they are still to
fill in is drawn under them too, seen together with them, and read out with them (the box is
aria-invalid and described by that message)."""
from __future__ import annotations

from playwright.sync_api import expect

from .conftest import PHONE
from .test_layout import axe_check
from .test_referee import start_match


def in_view(box: dict) -> bool:
    """The whole of an element's bounding box is on the screen."""
    return box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_a_blank_save_says_so_beside_the_points_box(page, live_server, screenshot):
    start_match(page, live_server, "third_hand")
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#record .alert")).to_contain_text("Still to fill in: bids, trump, card points.")
    points = page.locator('#record input[name="points_0"]')
    expect(points).to_have_attribute("aria-invalid", "true")
    message = page.locator("#" + (points.get_attribute("aria-describedby") or "no-description"))
    expect(message).to_have_text("Still to fill in: card points")
    points.scroll_into_view_if_needed()
    box, said = points.bounding_box(), message.bounding_box()
    assert box is not None and said is not None
    assert in_view(box) and in_view(said), (box, said)  # seen together, with no scrolling between
    screenshot("message-beside-points-box", full_page=False)
    assert not axe_check(page)
