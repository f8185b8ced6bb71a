"""Keyboard-only helpers for the browser tests (WCAG 2.1.1 Keyboard, 2.4.7 Focus Visible).

``tab_to(page, locator)`` presses Tab until ``locator`` has the focus and returns how many
presses it took; on arrival it checks that the focused element shows a focus indicator.
A test of a role's main task then reads as the keys a keyboard user presses::

    tab_to(page, page.get_by_role("link", name="Standings").first)
    page.keyboard.press("Enter")
"""

from __future__ import annotations

# What the focused element looks like, and a short name for it in failure messages.
FOCUS_STYLE = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  const text = (el.innerText || el.value || el.getAttribute('aria-label') || '').trim();
  return {
    element: el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' ' + JSON.stringify(text.slice(0, 40)),
    outlineStyle: style.outlineStyle,
    outlineWidth: parseFloat(style.outlineWidth) || 0,
    boxShadow: style.boxShadow,
  };
}"""


def focus_indicator(style: dict) -> bool:
    """An outline that is drawn, or a box shadow: the two ways the site may show focus."""
    outline = style["outlineStyle"] != "none" and style["outlineWidth"] > 0
    return outline or style["boxShadow"] != "none"


def tab_to(page, locator, *, max_presses: int = 40) -> int:
    """Press Tab until ``locator`` (one element) has the focus; return the presses taken.

    Fails, naming every element the focus passed through, if ``max_presses`` are not
    enough; fails if the element, once focused, shows no outline or box shadow.
    """
    path = []
    for presses in range(1, max_presses + 1):
        page.keyboard.press("Tab")
        style = page.evaluate(FOCUS_STYLE)
        path.append(style["element"] if style else "(nothing)")
        if locator.evaluate("el => el === document.activeElement"):
            assert style is not None and focus_indicator(style), (
                f"{style['element'] if style else locator} has the focus but shows no focus "
                f"indicator (outline {style and style['outlineStyle']} "
                f"{style and style['outlineWidth']}px, box-shadow {style and style['boxShadow']})"
            )
            return presses
    raise AssertionError(
        f"{locator} not reached in {max_presses} presses of Tab; the focus went: "
        + " → ".join(path)
    )
