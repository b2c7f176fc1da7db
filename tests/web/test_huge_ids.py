"""A match id past what SQLite holds is no match: 404 everywhere, never a 500."""
import pytest

HUGE = ["9223372036854775808", "99999999999999999999999999"]


@pytest.mark.parametrize("number", HUGE)
@pytest.mark.parametrize("path", ["/matches/{}", "/matches/{}/board", "/matches/{}/log", "/matches/{}/export.csv",
                                  "/matches/{}/print", "/matches/{}/rules", "/referee/third_rail?match={}"])
def test_a_huge_match_id_is_not_found(client, path, number):
    response = client.get(path.format(number))
    assert response.status_code == 404
    assert "There is no such page or match" in response.get_data(as_text=True)


def test_a_huge_match_id_posted_is_not_found(client):
    response = client.post(f"/matches/{HUGE[0]}/hands", data={"bid": "5"})
    assert response.status_code == 404
