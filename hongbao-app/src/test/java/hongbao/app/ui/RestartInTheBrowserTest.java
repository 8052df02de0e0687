package hongbao.app.ui;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Page;
import com.microsoft.playwright.assertions.PlaywrightAssertions;
import hongbao.app.embedded.FreePorts;
import hongbao.app.support.Api;
import hongbao.app.support.Chromium;
import hongbao.app.support.ServeProcess;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a person sees across restarts of {@code serve} on its data directory: signed in before, a
 * phone is still signed in after (its token in localStorage, the dev secret in the data directory);
 * a share link sent before opens the same packet after, and another person can still grab it; the
 * wallets and lists show the same money. The service stops once as Ctrl-C stops it and once as
 * {@code kill -9} does, which leaves its embedded servers for the next start to stop.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RestartInTheBrowserTest {

  /** Static: JUnit fills an instance field only after {@code @BeforeAll} has run. */
  @TempDir static Path root;

  private Chromium chromium;
  private ServeProcess serve;

  @BeforeAll
  void start() {
    chromium = Chromium.launch();
    PlaywrightAssertions.setDefaultAssertionTimeout(Chromium.TIMEOUT_MILLIS);
    serve = ServeProcess.start(root.resolve("data"), FreePorts.find());
  }

  @AfterAll
  void stop() {
    try {
      if (chromium != null) {
        chromium.close();
      }
    } finally {
      if (serve != null) {
        serve.close();
      }
    }
  }

  private Page signedIn(String user) {
    Page page = chromium.phone("zh-CN").newPage();
    page.navigate(serve.base() + "/#/signin");
    page.getByTestId("signin-user").fill(user);
    page.getByTestId("signin-submit").click();
    assertThat(page.getByTestId("balance")).isVisible();
    return page;
  }

  @Test
  void aSessionAndAShareLink_surviveAGracefulStop_andAKill() {
    Page alice = signedIn("alice-restart");
    alice.getByTestId("topup-amount").fill("100");
    alice.getByTestId("topup-submit").click();
    assertThat(alice.getByTestId("balance")).containsText("100.00");
    alice.navigate(serve.base() + "/#/send");
    alice.getByTestId("type-fixed").click();
    alice.getByTestId("send-amount").fill("6");
    alice.getByTestId("send-count").fill("2");
    alice.getByTestId("send-greeting").fill("重启之后还在");
    alice.getByTestId("send-submit").click();
    String link = alice.getByTestId("share-link").inputValue();
    assertThat(link).startsWith(serve.base() + "/#/grab/");

    serve.stop();
    serve.start();

    alice.navigate(serve.base() + "/#/wallet");
    assertThat(alice.locator("#who")).hasText("alice-restart");
    assertThat(alice.getByTestId("balance")).containsText("88.00");
    Page bob = signedIn("bob-restart");
    bob.navigate(link);
    assertThat(bob.getByTestId("envelope")).containsText("重启之后还在");
    bob.getByTestId("grab-open").click();
    assertThat(bob.getByTestId("grab-result")).hasAttribute("data-outcome", "GRABBED");
    assertThat(bob.getByTestId("grab-amount")).containsText("6.00");
    assertThat(bob.getByTestId("grab-payout")).hasAttribute("data-paid", "true");

    serve.kill();
    serve.start();

    bob.navigate(serve.base() + "/#/wallet");
    assertThat(bob.locator("#who")).hasText("bob-restart");
    assertThat(bob.getByTestId("balance")).containsText("6.00");
    bob.navigate(serve.base() + "/#/packets");
    assertThat(bob.getByTestId("packet-item")).hasCount(1);
    assertThat(bob.getByTestId("packet-amount")).containsText("¥6.00");

    alice.navigate(serve.base() + "/#/packets/sent");
    assertThat(alice.locator("#who")).hasText("alice-restart");
    assertThat(alice.getByTestId("packet-item")).containsText("已领取 1/2 个");
    alice.navigate(link);
    assertThat(alice.getByTestId("envelope")).containsText("重启之后还在");
    alice.getByTestId("grab-open").click();
    assertThat(alice.getByTestId("grab-result")).hasAttribute("data-outcome", "GRABBED");
    assertThat(alice.getByTestId("grab-payout")).hasAttribute("data-paid", "true");
    alice.navigate(serve.base() + "/#/wallet");
    assertThat(alice.getByTestId("balance")).containsText("94.00");
    Chromium.screenshot(alice, "16-after-restart");

    Api api = new Api(serve.port());
    var reconciliation = api.get("/api/v1/admin/reconciliation", api.adminToken());
    assertThat(reconciliation.status()).as(reconciliation.raw()).isEqualTo(200);
    assertThat(reconciliation.json().getJsonArray("discrepancies")).as(serve.logTail()).isEmpty();
  }
}
