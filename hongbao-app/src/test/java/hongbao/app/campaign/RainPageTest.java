package hongbao.app.campaign;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static hongbao.app.campaign.RainFixture.campaign;
import static hongbao.app.campaign.RainFixture.prize;
import static hongbao.app.campaign.RainFixture.round;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Page;
import com.microsoft.playwright.assertions.LocatorAssertions;
import hongbao.app.support.Chromium;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The rain page in a real browser (Debian's chromium through Playwright) against the real service:
 * a user signs in, taps a falling packet, sees the win open with its amount, finds it in the
 * rewards list (PENDING, then CREDITED) and withdraws it. The rain's clock stands at the moment the
 * test starts, inside the round, so browser and server agree that the round runs. Photographed at
 * phone width into target/screenshots/ (docs/screenshots/ with -Dhongbao.update-screenshots=true).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RainPageTest {

  private RainFixture fixture;
  private Chromium chromium;
  private String base;

  @BeforeAll
  void start() {
    chromium = Chromium.launch();
    fixture = new RainFixture(Instant.now());
    base = "http://127.0.0.1:" + fixture.service.hongbao().port();
  }

  @AfterEach
  void reconciled() {
    fixture.service.assertReconciled();
  }

  @AfterAll
  void stop() {
    if (chromium != null) {
      chromium.close();
    }
    if (fixture != null) {
      try {
        // Its rounds run on the real clock: end them here, or the closer of a later test whose
        // clock stands past them would return their budgets while it counts the funding account.
        fixture.returnEnded(Duration.ofHours(1));
      } finally {
        fixture.close();
      }
    }
  }

  private Page phone(String locale) {
    return chromium.phone(locale).newPage();
  }

  @Test
  void rainPage_tapWinsAndTheRewardIsListedAndWithdrawn() {
    Instant now = fixture.clock.instant();
    String id =
        fixture.created(
            campaign(1_000_000, 3, 10, round(now.minusSeconds(5), 600, prize("CASH", 188, 1_000))));
    Page page = phone("zh-CN");
    page.navigate(base + "/rain.html?c=" + id);
    page.getByTestId("rain-user").fill("rain-page-alice");
    page.locator("form button").click();
    assertThat(page.getByTestId("rain-clock")).isVisible();
    assertThat(page.getByTestId("rain-packet").first()).isAttached();
    screenshot(page, "11-rain");

    // A falling packet never stands still for a normal click: dispatch the tap.
    page.getByTestId("rain-packet").first().dispatchEvent("click");
    assertThat(page.getByTestId("rain-win")).isVisible();
    assertThat(page.getByTestId("rain-win-amount")).hasText("¥1.88");
    screenshot(page, "12-rain-won");
    page.getByTestId("rain-win-ok").click();

    assertThat(page.getByTestId("rain-reward").first()).isVisible();
    String tokens = String.valueOf(page.evaluate("localStorage.getItem('hb.rainTokens')"));
    assertThat(tokens).contains("rain-page-alice~");
    // The statement refreshes every 5 s: the reward turns CREDITED once the pipeline credited it.
    assertThat(page.locator("[data-testid=rain-reward][data-status=CREDITED]").first())
        .isVisible(new LocatorAssertions.IsVisibleOptions().setTimeout(30_000));
    screenshot(page, "13-rain-rewards");

    page.getByTestId("rain-withdraw").click();
    assertThat(page.getByTestId("rain-withdrawn")).containsText("PENDING");

    page.locator("#lang").click();
    assertThat(page.locator("#rain-title")).hasText("Red-packet rain");
  }

  @Test
  void rainPage_anAdminWatchesTheRoundLive_asTapsWin() {
    Instant now = fixture.clock.instant();
    String id =
        fixture.created(
            campaign(1_000_000, 3, 10, round(now.minusSeconds(5), 600, prize("CASH", 288, 40))));
    Page page = phone("en-US");
    page.navigate(base + "/rain.html?c=" + id);
    page.evaluate("token => localStorage.setItem('hb.adminToken', token)", fixture.admin);
    page.getByTestId("rain-user").fill("rain-page-watcher");
    page.locator("form button").click();
    var round = page.locator("[data-testid=rain-live-round][data-round='1']");
    assertThat(round).hasAttribute("data-wins", "0");
    assertThat(round).hasAttribute("data-left", "40");
    assertThat(page.getByTestId("rain-live-left")).containsText("40 of 40 left");
    assertThat(page.getByTestId("rain-live-type")).containsText("CASH issued");
    assertThat(page.getByTestId("rain-live-queue").first()).containsText("lag");

    // The round's first taps on an instance always draw (no rate is known yet): this one wins.
    page.getByTestId("rain-packet").first().dispatchEvent("click");
    assertThat(page.getByTestId("rain-win")).isVisible();
    assertThat(round).hasAttribute("data-wins", "1");
    assertThat(round).hasAttribute("data-left", "39");
    assertThat(round).hasAttribute("data-taps", "1");
    assertThat(page.getByTestId("rain-live-left")).containsText("39 of 40 left");
    assertThat(page.getByTestId("rain-live-spent")).containsText("spent ¥2.88");

    // A second later the tap's second is whole: 1 tap and 1 win over the last 5 s of the round.
    fixture.clock.advance(java.time.Duration.ofSeconds(1));
    assertThat(round.getByTestId("rain-live-rates")).hasText("taps/s 0.2 · wins/s 0.2");
    screenshot(page, "15-rain-live");
  }

  @Test
  void rainPage_anOperatorCreatesARainThatCountsDown() {
    Page page = phone("en-US");
    page.navigate(base + "/rain.html");
    page.getByTestId("rain-user").fill("rain-page-ops");
    page.locator("form button").click();
    page.getByTestId("rain-new-startsIn").fill("120");
    page.getByTestId("rain-new-count").fill("500");
    screenshot(page, "14-rain-create");
    page.getByTestId("rain-new-submit").click();
    assertThat(page.getByTestId("rain-clock")).isVisible();
    assertThat(page.getByTestId("rain-status")).containsText("Starts in");
    assertThat(page.getByTestId("rain-status")).containsText("500 packets left");
    assertThat(page).hasURL(java.util.regex.Pattern.compile("rain\\.html\\?c=c_"));
  }

  private static void screenshot(Page page, String name) {
    Chromium.screenshot(page, name);
  }
}
