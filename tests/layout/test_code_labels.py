"""Breaking labels: code labels (``"text": "code"``) break only at spaces and after ``/ ? & = _ . -``, never inside
a token, and prose labels only at spaces and after hyphens and slashes; a word or token that no line the layout
allows can hold breaks between characters with the continuation mark.  Numbers keep their units; CJK text breaks
between its characters as before."""

from __future__ import annotations

import pytest

from mechdiagram.layout.measure import (
    CONTINUATION,
    even_wrap,
    segments,
    text_width,
    tokens,
    wrap,
)
from mechdiagram.layout.placement import box_lines, label_width, path_label_lines, word_bound
from mechdiagram.layout.sizes import (
    BOX_CODE_WIDTH,
    BOX_MAX_WIDTH,
    BOX_WORD_WIDTH,
    FONT_SIZE,
    NARROW_BOX_MAX_WIDTH,
    NARROW_LABEL_WIDTH,
    PAD_X,
    PATH_LABEL_GROWTH,
    PATH_LABEL_SIZE,
    PATH_LABEL_WIDTH,
)


def _text(lines) -> str:
    """The characters of ``lines`` without the continuation marks and spaces: what the reader reads."""
    return "".join(line.removesuffix(CONTINUATION) for line in lines).replace(" ", "")


@pytest.mark.parametrize(("label", "expected"), [
    ("code_challenge", ["code_", "challenge"]),
    ("/callback?code&state", ["/callback?", "code&", "state"]),
    ("code_verifier", ["code_", "verifier"]),
    ("https://auth.example.com/authorize?response_type=code",
     ["https://", "auth.", "example.", "com/", "authorize?", "response_", "type=", "code"]),
    ("max_new_tokens_per_step", ["max_", "new_", "tokens_", "per_", "step"]),
    ("S256(code_verifier)", ["S256(code_", "verifier)"]),
])
def test_code_breaks_only_after_its_separators(label, expected):
    assert segments(label, code=True) == expected
    assert tokens(label, code=True) == expected


@pytest.mark.parametrize("word", ["2.5", "1,024", "v1.2.3", "SHA-256", "10-20", "/callback", "--flag", "__init__.py",
                                  "a_b", "Sstw-cM"])
def test_no_break_inside_a_number_after_leading_marks_or_before_a_scrap(word):
    assert segments(word, code=True) == [word]


def test_the_three_identifiers_of_the_issue_break_between_tokens_in_a_narrow_box():
    """The issue's ``code_challe|nge``, ``/callback?c|ode&state`` and ``code_v|erifier``: in the narrow layout's
    box (NARROW_BOX_MAX_WIDTH), each breaks after a separator, never inside a token, and carries no mark."""
    inner = NARROW_BOX_MAX_WIDTH - 2 * PAD_X
    assert box_lines("code_challenge", NARROW_BOX_MAX_WIDTH, code=True) == ("code_", "challenge")
    assert box_lines("/callback?code&state", NARROW_BOX_MAX_WIDTH, code=True) == ("/callback?", "code&state")
    assert box_lines("App: keeps code_verifier", NARROW_BOX_MAX_WIDTH, code=True) == ("App: keeps", "code_",
                                                                                       "verifier")
    for label in ("code_challenge", "/callback?code&state", "code_verifier"):
        lines = box_lines(label, NARROW_BOX_MAX_WIDTH, code=True)
        assert all(text_width(line, code=True) <= inner for line in lines)
        assert "".join(lines) == label and not any(CONTINUATION in line for line in lines)
    # In the wide layout's box each is one line: 14 characters of the monospace face fit BOX_MAX_WIDTH.
    assert box_lines("code_challenge", code=True) == ("code_challenge",)
    assert box_lines("/callback?code&state", code=True) == ("/callback?", "code&state")


def test_code_words_stay_whole_where_a_line_holds_them():
    """Spaces first: a code word that fits a line is not broken after its separators ("code + / code_verifier",
    not "code + code_ / verifier")."""
    assert path_label_lines("code + code_verifier", code=True) == ("code +", "code_verifier")
    assert wrap("GET /callback?code=abc&state=xyz", 130, code=True) == ["GET /callback?", "code=abc&", "state=xyz"]


def test_a_number_keeps_its_unit_in_code_as_in_prose():
    assert wrap("2.5 GiB of weights", 90, code=True) == ["2.5 GiB", "of", "weights"]
    assert wrap("wait 512 ms", 80, code=True) == ["wait", "512 ms"]
    assert wrap("wait 512 ms", 80) == ["wait", "512 ms"]
    assert wrap("1,024 tokens", 60, code=True) == ["1,024", "tokens"]


def test_cjk_breaks_between_characters_with_no_mark_as_before():
    # The same lines as before this change (its greedy wrap then: JIS X 4051 line-start rules, no mark).
    assert wrap("キャッシュに書き込む", 84, 13) == ["キャッシュ", "に書き込む"]
    assert wrap("漢字のラベルはとても長くなることがあります", 100) == ["漢字のラベル", "はとても長く", "なることがあ", "ります"]
    assert wrap("長いラベル：テスト", 120, 13) == ["長いラベル：テス", "ト"]
    assert path_label_lines("長いラベル：テスト") == even_wrap("長いラベル：テスト", PATH_LABEL_WIDTH, PATH_LABEL_SIZE)
    assert label_width("長いラベル：テスト") == PATH_LABEL_WIDTH  # CJK does not grow the label


def test_a_prose_word_breaks_after_a_hyphen_or_slash_then_with_the_mark():
    """A new user saw "SYN-ACK (retransmitted)" as "retrans / mitted": the narrow layout's path label
    (NARROW_LABEL_WIDTH) broke the word between characters, unmarked.  The label now grows to keep it whole."""
    assert wrap("SYN-ACK (retransmitted)", NARROW_LABEL_WIDTH, PATH_LABEL_SIZE)[1:] == ["(retrans" + CONTINUATION,
                                                                                        "mitted)"]
    assert path_label_lines("SYN-ACK (retransmitted)", narrow=True) == ("SYN-ACK", "(retransmitted)")
    assert path_label_lines("SYN-ACK (retransmitted)") == ("SYN-ACK", "(retransmitted)")
    assert wrap("read/write-through", 70, 13) == ["read/", "write-", "through"]  # was "read/wri", "te-throu", "gh"
    # Past the growth bound, a word breaks with the mark, each line within the width, nothing lost.
    word = "Supercalifragilisticexpialidociousandthensome"
    lines = path_label_lines(word, narrow=True)
    bound = NARROW_LABEL_WIDTH * PATH_LABEL_GROWTH
    assert len(lines) > 1 and all(line.endswith(CONTINUATION) for line in lines[:-1])
    assert all(text_width(line, PATH_LABEL_SIZE) <= bound for line in lines)
    assert _text(lines) == word


def test_a_token_grows_its_box_up_to_the_layouts_bound_then_breaks_with_the_mark():
    challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"  # RFC 7636's example, 43 characters, one token
    width = text_width(challenge, code=True)
    assert BOX_WORD_WIDTH - 2 * PAD_X < width <= BOX_CODE_WIDTH - 2 * PAD_X
    # Wide: the box grows past BOX_WORD_WIDTH (a prose word's bound) to hold the token whole.
    assert box_lines(challenge, code=True, bound=word_bound(True)) == (challenge,)
    # Narrow: no wider than the narrow layout's boxes; the token breaks with the mark.
    lines = box_lines(challenge, NARROW_BOX_MAX_WIDTH, code=True, bound=word_bound(True, NARROW_BOX_MAX_WIDTH))
    assert len(lines) > 1 and all(line.endswith(CONTINUATION) for line in lines[:-1])
    assert all(text_width(line, code=True) <= NARROW_BOX_MAX_WIDTH - 2 * PAD_X for line in lines)
    assert _text(lines) == challenge
    # A prose word is bound as before: BOX_WORD_WIDTH.
    assert box_lines(challenge) != (challenge,) and box_lines(challenge)[0].endswith(CONTINUATION)


def test_code_is_measured_in_the_monospace_face():
    # DejaVu Sans Mono: every character 1233/2048 em (602 units of 1000), with the safety factor.
    assert text_width("iiii", code=True) == text_width("WWWW", code=True) == pytest.approx(4 * 0.602 * FONT_SIZE * 1.08)
    assert text_width("iiii") < text_width("WWWW")
    # A character the face lacks is measured as in prose (the browser takes it from another face).
    assert text_width("字", code=True) == text_width("字")


def test_a_path_label_grows_only_for_a_word_wider_than_its_width():
    assert label_width("a short label") == PATH_LABEL_WIDTH
    assert label_width("a short label", narrow=True) == NARROW_LABEL_WIDTH
    assert label_width("(retransmitted)", narrow=True) == pytest.approx(text_width("(retransmitted)", PATH_LABEL_SIZE))
    assert label_width("x" * 80) == PATH_LABEL_WIDTH * PATH_LABEL_GROWTH
    assert label_width("x" * 80, code=True) == BOX_CODE_WIDTH - 2 * PAD_X  # a code label grows as a box does
    assert BOX_MAX_WIDTH < BOX_WORD_WIDTH < BOX_CODE_WIDTH
