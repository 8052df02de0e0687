package hongbao.app.ui;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.options.AriaRole;
import hongbao.app.support.Backends;
import hongbao.app.support.TestService;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The web UI in a real browser (Debian's chromium driven by Playwright) against the real service on
 * embedded backends: two people sign in, one sends, the other opens the envelope. Every page is
 * photographed at phone width into target/screenshots/ (docs/screenshots/ with
 * -Dhongbao.update-screenshots=true, the copies the README shows).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WebUiTest {

  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final int PHONE_WIDTH = 390;
  private static final int PHONE_HEIGHT = 844;

  private TestService service;
  private Playwright playwright;
  private Browser browser;
  private String base;
  private final String alice = "alice-" + UUID.randomUUID().toString().substring(0, 6);
  private final String bob = "bob-" + UUID.randomUUID().toString().substring(0, 6);

  @BeforeAll
  void start() {
    Assumptions.assumeTrue(
        Files.isExecutable(CHROMIUM),
        "browser tests skipped: no chromium at " + CHROMIUM + " (apt-get install -y chromium)");
    service = TestService.start(Backends.embedded());
    base = "http://127.0.0.1:" + service.hongbao().port();
    playwright =
        Playwright.create(
            new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
    browser =
        playwright
            .chromium()
            .launch(
                new BrowserType.LaunchOptions()
                    .setExecutablePath(CHROMIUM)
                    .setHeadless(true)
                    .setArgs(
                        List.of(
                            "--headless",
                            "--no-sandbox",
                            "--disable-gpu",
                            "--disable-quic",
                            "--no-first-run",
                            "--disable-background-networking",
                            "--disable-component-update",
                            "--disable-sync")));
  }

  @AfterEach
  void reconciles() {
    service.assertReconciled();
  }

  @AfterAll
  void stop() {
    if (browser != null) {
      browser.close();
    }
    if (playwright != null) {
      playwright.close();
    }
    if (service != null) {
      service.close();
    }
  }

  /** A phone-sized browser of its own (own localStorage), in Chinese unless told otherwise. */
  private Page phone(String language) {
    BrowserContext context =
        browser.newContext(
            new Browser.NewContextOptions()
                .setViewportSize(PHONE_WIDTH, PHONE_HEIGHT)
                .setDeviceScaleFactor(2)
                .setLocale(language.equals("zh") ? "zh-CN" : "en-US"));
    context.setDefaultTimeout(15_000);
    Page page = context.newPage();
    page.navigate(base + "/");
    return page;
  }

  private static void signIn(Page page, String user) {
    page.navigate(page.url().replaceAll("#.*$", "") + "#/signin");
    page.getByTestId("signin-user").fill(user);
    page.getByTestId("signin-submit").click();
    assertThat(page.getByTestId("balance")).isVisible();
  }

  private static void screenshot(Page page, String name) {
    page.waitForTimeout(400); // let transitions and the opening animation settle
    Path file = screenshots().resolve(name + ".png");
    page.screenshot(new Page.ScreenshotOptions().setPath(file).setFullPage(false));
    assertThat(file).exists();
  }

  /**
   * Where the pictures go: {@code target/screenshots/} of the module, so a test run never rewrites
   * tracked files; {@code -Dhongbao.update-screenshots=true} writes the README's copies in
   * docs/screenshots/ instead.
   */
  private static Path screenshots() {
    Path here = Path.of("").toAbsolutePath();
    boolean inModule = here.getFileName().toString().equals("hongbao-app");
    if (!Boolean.getBoolean("hongbao.update-screenshots")) {
      Path dir = (inModule ? here : here.resolve("hongbao-app")).resolve("target/screenshots");
      try {
        return Files.createDirectories(dir);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    Path root = inModule ? here.getParent() : here;
    return root.resolve("docs").resolve("screenshots");
  }

  private static String packetIdOf(Page page) {
    String link = page.getByTestId("share-link").inputValue();
    return link.substring(link.lastIndexOf('/') + 1);
  }

  @Test
  @Order(1)
  void twoPeople_topUp_send_grab_andSeeTheDetails() {
    Page sender = phone("zh");
    assertThat(sender.getByTestId("signin-user")).isVisible();
    screenshot(sender, "01-signin");
    signIn(sender, alice);

    sender.getByTestId("topup-amount").fill("200.50");
    sender.getByTestId("topup-submit").click();
    assertThat(sender.getByTestId("balance")).containsText("200.50");
    assertThat(sender.getByTestId("entries")).containsText("+200.50");

    sender.navigate(base + "/#/send");
    sender.getByTestId("send-amount").fill("abc");
    sender.getByTestId("send-submit").click();
    assertThat(sender.getByTestId("amount-error")).isVisible();
    sender.getByTestId("send-amount").fill("1000");
    sender.getByTestId("send-count").fill("3");
    sender.getByTestId("send-submit").click();
    assertThat(sender.getByTestId("amount-error")).containsText("余额不足");

    sender.getByTestId("send-amount").fill("88.88");
    sender.getByTestId("send-count").fill("2");
    sender.getByTestId("send-greeting").fill("新年快乐，万事如意");
    assertThat(sender.getByTestId("amount-error")).isHidden();
    sender.evaluate("window.scrollTo(0, 0)");
    screenshot(sender, "03-send");
    sender.getByTestId("send-submit").click();
    assertThat(sender.getByTestId("share-qr").locator("svg")).isVisible();
    String packetId = packetIdOf(sender);
    screenshot(sender, "04-send-shared");

    Page grabber = phone("zh");
    signIn(grabber, bob);
    grabber.navigate(base + "/#/grab/" + packetId);
    assertThat(grabber.getByTestId("envelope")).containsText("新年快乐");
    screenshot(grabber, "05-grab");
    grabber.getByTestId("grab-open").click();
    Locator result = grabber.getByTestId("grab-result");
    assertThat(result).hasAttribute("data-outcome", "GRABBED");
    assertThat(grabber.getByTestId("grab-amount")).containsText("¥");
    screenshot(grabber, "06-grab-opened");

    // The sender takes the second share, which empties the packet: best luck appears.
    sender.navigate(base + "/#/grab/" + packetId);
    sender.getByTestId("grab-open").click();
    assertThat(sender.getByTestId("grab-result")).hasAttribute("data-outcome", "GRABBED");

    grabber.getByTestId("grab-details").click();
    assertThat(grabber.getByTestId("grabbed-count")).containsText("2/2");
    assertThat(grabber.getByTestId("status")).hasAttribute("data-status", "EMPTY");
    assertThat(grabber.getByTestId("best-luck")).hasCount(1);
    assertThat(grabber.getByTestId("grabs")).containsText(bob);

    // Grabbing again answers with the share already taken.
    grabber.navigate(base + "/#/grab/" + packetId);
    grabber.getByTestId("grab-open").click();
    assertThat(grabber.getByTestId("grab-result")).hasAttribute("data-outcome", "ALREADY_GRABBED");

    grabber.navigate(base + "/#/details/" + packetId);
    assertThat(grabber.getByTestId("best-luck")).isVisible();
    screenshot(grabber, "07-details");

    grabber.navigate(base + "/#/wallet");
    assertThat(grabber.getByTestId("entries")).containsText("抢到红包");
    screenshot(grabber, "02-wallet");
    grabber.context().close();
    sender.context().close();
  }

  @Test
  @Order(2)
  void detailsRefresh_whileActive() {
    String carol = "carol-" + UUID.randomUUID().toString().substring(0, 6);
    assertThat(service.api().topUp(carol, 10_000).status()).isEqualTo(200);
    String packetId = service.api().sendLucky(service.api().token(carol), 3_000, 3, 3600);
    Page page = phone("en");
    signIn(page, carol);
    page.navigate(base + "/#/details/" + packetId);
    assertThat(page.getByTestId("grabbed-count")).containsText("0/3");
    service.api().grab(service.api().token(bob), packetId);
    assertThat(page.getByTestId("grabbed-count")).containsText("1/3");
    assertThat(page.getByTestId("status")).hasAttribute("data-status", "ACTIVE");
    page.context().close();
  }

  @Test
  @Order(3)
  void passwordPacket_refusesAWrongPassword_andOpensWithTheRightOne() {
    String dave = "dave-" + UUID.randomUUID().toString().substring(0, 6);
    assertThat(service.api().topUp(dave, 10_000).status()).isEqualTo(200);
    Page sender = phone("zh");
    signIn(sender, dave);
    sender.navigate(base + "/#/send");
    sender.getByTestId("type-fixed").click();
    sender.getByTestId("send-amount").fill("10");
    sender.getByTestId("send-count").fill("3");
    sender.getByTestId("send-submit").click();
    assertThat(sender.getByTestId("amount-error")).isVisible();
    sender.getByTestId("send-count").fill("2");
    sender.getByTestId("send-password").fill("芝麻开门");
    sender.getByTestId("send-submit").click();
    String packetId = packetIdOf(sender);

    Page grabber = phone("en");
    signIn(grabber, bob);
    grabber.navigate(base + "/#/grab/" + packetId);
    grabber.getByTestId("grab-password").fill("open sesame");
    grabber.getByTestId("grab-open").click();
    assertThat(grabber.getByTestId("grab-notice")).containsText("Wrong password");
    assertThat(grabber.getByTestId("grab-result")).not().hasAttribute("data-outcome", "GRABBED");
    screenshot(grabber, "08-grab-wrong-password");
    grabber.getByTestId("grab-password").fill("芝麻开门");
    grabber.getByTestId("grab-open").click();
    assertThat(grabber.getByTestId("grab-result")).hasAttribute("data-outcome", "GRABBED");
    assertThat(grabber.getByTestId("grab-amount")).containsText("5.00");
    grabber.context().close();
    sender.context().close();
  }

  @Test
  @Order(4)
  void adminPage_showsSwitches_reconciliation_andLiveFigures() {
    Page page = phone("zh");
    signIn(page, alice);
    page.navigate(base + "/#/admin");
    page.getByTestId("admin-dev").click();
    assertThat(page.getByTestId("reconciliation-verdict")).hasAttribute("data-ok", "true");
    assertThat(page.getByTestId("metric-grabs")).not().hasText("0");
    Locator sending = page.getByTestId("switch-sending");
    assertThat(sending).isChecked();
    sending.click();
    assertThat(sending).not().isChecked();
    JsonObject switches =
        service.api().get("/api/v1/admin/switches", service.api().adminToken()).json();
    assertThat(switches.getBoolean("sending")).isFalse();
    sending.click();
    assertThat(sending).isChecked();
    assertThat(page.getByRole(AriaRole.HEADING).first()).isVisible();
    screenshot(page, "09-admin");
    page.context().close();
  }

  /** A 口令 packet of two shares sent through the API, matched by pinyin (the default). */
  private String passwordPacket(String phrase) {
    String erin = "erin-" + UUID.randomUUID().toString().substring(0, 6);
    assertThat(service.api().topUp(erin, 10_000).status()).isEqualTo(200);
    var sent =
        service
            .api()
            .send(
                service.api().token(erin),
                JsonObject.of("amount", 200, "count", 2, "type", "FIXED", "password", phrase));
    assertThat(sent.status()).isEqualTo(201);
    return sent.json().getString("id");
  }

  /** A phone whose browser has no speech recognition at all. */
  private Page phoneWithoutSpeech() {
    Page page = phone("zh");
    page.context()
        .addInitScript(
            "for (const name of ['SpeechRecognition', 'webkitSpeechRecognition']) {"
                + " try { delete window[name]; } catch (e) {}"
                + " Object.defineProperty(window, name, {value: undefined, configurable: true}); }");
    page.reload();
    return page;
  }

  @Test
  @Order(5)
  void passwordEnvelope_withoutSpeechRecognition_hidesTheMic_andOpensWithATypedHomophone() {
    String packetId = passwordPacket("恭喜发财");
    Page grabber = phoneWithoutSpeech();
    signIn(grabber, bob);
    grabber.navigate(base + "/#/grab/" + packetId);
    assertThat(grabber.getByTestId("grab-password")).isVisible();
    assertThat(grabber.getByTestId("grab-mic")).isHidden();
    grabber.getByTestId("grab-password").fill("恭禧發財");
    grabber.getByTestId("grab-open").click();
    assertThat(grabber.getByTestId("grab-result")).hasAttribute("data-outcome", "GRABBED");
    assertThat(grabber.getByTestId("grab-amount")).containsText("1.00");
    grabber.context().close();
  }

  @Test
  @Order(6)
  void passwordEnvelope_withSpeechRecognition_sendsWhatWasHeard() {
    String packetId = passwordPacket("恭喜发财");
    Page grabber = phone("zh");
    // A stand-in recogniser that hears "工喜发财" (a homophone, as recognisers write) in zh-CN.
    grabber
        .context()
        .addInitScript(
            "window.heardLang = null;"
                + " const Heard = class {"
                + "   start() { window.heardLang = this.lang; setTimeout(() => {"
                + "     this.onresult({results: [[{transcript: '工喜发财', confidence: 0.9}]]});"
                + "     if (this.onend) this.onend(); }, 50); }"
                + "   stop() {} abort() {} };"
                + " for (const name of ['SpeechRecognition', 'webkitSpeechRecognition']) {"
                + "   Object.defineProperty(window, name, {value: Heard, configurable: true}); }");
    grabber.reload();
    signIn(grabber, bob);
    grabber.navigate(base + "/#/grab/" + packetId);
    assertThat(grabber.getByTestId("grab-mic")).isVisible();
    grabber.getByTestId("grab-mic").click();
    assertThat(grabber.getByTestId("grab-result")).hasAttribute("data-outcome", "GRABBED");
    assertThat(grabber.getByTestId("grab-password")).hasValue("工喜发财");
    assertThat(grabber.evaluate("window.heardLang")).isEqualTo("zh-CN");
    grabber.context().close();
  }

  @Test
  @Order(7)
  void wallet_withdraws_andListsTheWithdrawalUntilItIsPaidOut() {
    String erin = "erin-" + UUID.randomUUID().toString().substring(0, 6);
    assertThat(service.api().topUp(erin, 30_000).status()).isEqualTo(200);
    Page page = phone("zh");
    signIn(page, erin);
    assertThat(page.getByTestId("withdrawals")).containsText("还没有提现");

    page.getByTestId("withdraw-amount").fill("abc");
    page.getByTestId("withdraw-submit").click();
    assertThat(page.getByTestId("withdraw-error")).isVisible();
    page.getByTestId("withdraw-amount").fill("1000");
    page.getByTestId("withdraw-submit").click();
    assertThat(page.getByTestId("withdraw-error")).containsText("余额不足");

    page.getByTestId("withdraw-amount").fill("120.50");
    page.getByTestId("withdraw-submit").click();
    Locator withdrawal = page.getByTestId("withdrawal").first();
    assertThat(withdrawal).containsText("120.50");
    assertThat(withdrawal).hasAttribute("data-status", "SUCCEEDED");
    assertThat(withdrawal).containsText("已到账");
    assertThat(page.getByTestId("balance")).containsText("179.50");
    page.reload();
    assertThat(page.getByTestId("entries")).containsText("提现");
    page.getByTestId("withdraw-amount").fill("50");
    page.evaluate("document.querySelector('[data-testid=withdrawals]').scrollIntoView()");
    screenshot(page, "10-withdraw");
    page.context().close();
  }
}
