package hongbao.app.ui;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.zxing.BarcodeFormat;
import com.google.zxing.BinaryBitmap;
import com.google.zxing.DecodeHintType;
import com.google.zxing.MultiFormatReader;
import com.google.zxing.NotFoundException;
import com.google.zxing.client.j2se.BufferedImageLuminanceSource;
import com.google.zxing.common.HybridBinarizer;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Route;
import com.microsoft.playwright.assertions.PlaywrightAssertions;
import com.microsoft.playwright.options.AriaRole;
import hongbao.app.support.Backends;
import hongbao.app.support.Chromium;
import hongbao.app.support.TestService;
import hongbao.core.ops.Switch;
import hongbao.http.auth.Tokens;
import io.vertx.core.json.JsonObject;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
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

  /**
   * Screenshots of a QR code taken before giving up on reading it, 200 ms apart: five (one second)
   * ran out once in a CI run while another full build shared the two cores.
   */
  private static final int QR_SHOTS = 25;

  private TestService service;
  private Chromium chromium;
  private String base;
  private final String alice = "alice-" + UUID.randomUUID().toString().substring(0, 6);
  private final String bob = "bob-" + UUID.randomUUID().toString().substring(0, 6);

  @BeforeAll
  void start() {
    chromium = Chromium.launch();
    PlaywrightAssertions.setDefaultAssertionTimeout(Chromium.TIMEOUT_MILLIS);
    service = TestService.start(Backends.embedded());
    base = "http://127.0.0.1:" + service.hongbao().port();
  }

  @AfterEach
  void reconciles() {
    service.assertReconciled();
  }

  @AfterAll
  void stop() {
    if (chromium != null) {
      chromium.close();
    }
    if (service != null) {
      service.close();
    }
  }

  /** A phone-sized browser of its own (own localStorage), in Chinese unless told otherwise. */
  private Page phone(String language) {
    Page page = chromium.phone(language.equals("zh") ? "zh-CN" : "en-US").newPage();
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
    Chromium.screenshot(page, name);
  }

  /**
   * What the QR code on the page says: ZXing reads a screenshot of it, as a phone camera would. A
   * busy machine can paint the decoded picture a frame late, so a blank shot is taken again, a few
   * times; a picture that never reads as a QR code fails.
   */
  private static String decodeQr(Locator image) {
    // Visible is not loaded: the picture is fetched after the element shows, and a screenshot
    // taken before it has decoded is blank.
    image.evaluate("img => img.decode()");
    NotFoundException unread = null;
    for (int shot = 0; shot < QR_SHOTS; shot++) {
      try {
        return readQr(image.screenshot());
      } catch (NotFoundException e) {
        unread = e;
        image.page().waitForTimeout(200);
      }
    }
    throw new AssertionError("no QR code found in the picture", unread);
  }

  private static String readQr(byte[] png) throws NotFoundException {
    try {
      BufferedImage picture = ImageIO.read(new ByteArrayInputStream(png));
      var bitmap = new BinaryBitmap(new HybridBinarizer(new BufferedImageLuminanceSource(picture)));
      return new MultiFormatReader()
          .decode(
              bitmap,
              Map.of(
                  DecodeHintType.POSSIBLE_FORMATS,
                  List.of(BarcodeFormat.QR_CODE),
                  DecodeHintType.TRY_HARDER,
                  true))
          .getText();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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
    assertThat(sender.getByTestId("share-qr-image")).isVisible();
    assertThat(sender.getByTestId("share-summary")).containsText("2 个");
    String packetId = packetIdOf(sender);
    assertThat(decodeQr(sender.getByTestId("share-qr-image")))
        .isEqualTo(base + "/#/grab/" + packetId)
        .isEqualTo(sender.getByTestId("share-link").inputValue());
    screenshot(sender, "04-send-shared");

    Page grabber = phone("zh");
    signIn(grabber, bob);
    grabber.navigate(base + "/#/grab/" + packetId);
    assertThat(grabber.getByTestId("envelope")).containsText("新年快乐");
    assertThat(grabber.getByTestId("envelope-kind")).hasText("拼手气红包");
    screenshot(grabber, "05-grab");
    grabber.getByTestId("grab-open").click();
    Locator result = grabber.getByTestId("grab-result");
    assertThat(result).hasAttribute("data-outcome", "GRABBED");
    assertThat(grabber.getByTestId("grab-amount")).containsText("¥");
    assertThat(grabber.getByTestId("grab-from")).containsText(alice + "的红包");
    assertThat(grabber.getByTestId("grab-from")).containsText("新年快乐，万事如意");
    // 入账中 until the payout worker credits the wallet, then 已领取: never ahead of the ledger.
    assertThat(grabber.getByTestId("grab-payout")).hasAttribute("data-paid", "true");
    assertThat(grabber.getByTestId("grab-payout")).hasText("已领取，已存入钱包");
    assertThat(grabber.getByTestId("luck")).containsText("看看大家的手气");
    assertThat(grabber.getByTestId("luck")).containsText(bob);
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

    // The envelope of a packet already opened shows the share taken, without a second 開.
    grabber.navigate(base + "/#/grab/" + packetId);
    assertThat(grabber.getByTestId("grab-result")).hasAttribute("data-outcome", "ALREADY_GRABBED");
    assertThat(grabber.getByTestId("grab-open")).isHidden();

    grabber.navigate(base + "/#/details/" + packetId);
    assertThat(grabber.getByTestId("best-luck")).isVisible();
    // How fast it emptied, in Chinese words from Intl: 毫秒 or 秒, never "ms" or "s".
    assertThat(grabber.getByTestId("time-to-empty"))
        .hasText(Pattern.compile("^[\\d.,]+\\s?(毫秒|秒)$|分钟"));
    assertThat(grabber.getByTestId("my-share")).hasAttribute("data-paid", "true");
    assertThat(grabber.getByTestId("details-open")).hasCount(0);
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
    assertThat(page.getByTestId("details-open")).isVisible();
    assertGrabbed(service.api().grab(service.api().token(bob), packetId));
    assertThat(page.getByTestId("grabbed-count")).containsText("1/3");
    assertThat(page.getByTestId("status")).hasAttribute("data-status", "ACTIVE");

    // Re-share from the details page: the same link, and a QR code that reads as that link.
    page.getByTestId("details-share").click();
    assertThat(page.getByTestId("share-link")).hasValue(base + "/#/grab/" + packetId);
    assertThat(page.getByTestId("share-qr-image")).isVisible();
    assertThat(decodeQr(page.getByTestId("share-qr-image")))
        .isEqualTo(base + "/#/grab/" + packetId);
    // The page refreshes every 2 s; the open share card stays.
    assertGrabbed(service.api().grab(service.api().token(alice), packetId));
    assertThat(page.getByTestId("grabbed-count")).containsText("2/3");
    assertThat(page.getByTestId("share-link")).isVisible();
    page.context().close();
  }

  /** A grab made behind the page's back: when the page does not show it, this says why. */
  private static void assertGrabbed(hongbao.app.support.Api.Response grab) {
    assertThat(grab.status()).as(grab.raw()).isEqualTo(200);
    assertThat(grab.json().getString("outcome")).as(grab.raw()).isEqualTo("GRABBED");
  }

  @Test
  @Order(3)
  void passwordPacket_refusesAWrongPassword_andOpensWithTheRightOne() {
    String dave = "dave-" + UUID.randomUUID().toString().substring(0, 6);
    assertThat(service.api().topUp(dave, 10_000).status()).isEqualTo(200);
    Page sender = phone("zh");
    signIn(sender, dave);
    sender.navigate(base + "/#/send");
    // 普通红包 asks for one share's amount and shows the total, as WeChat does.
    sender.getByTestId("type-fixed").click();
    assertThat(sender.locator("label[for=amount]")).hasText("单个金额（元）");
    sender.getByTestId("send-amount").fill("5");
    sender.getByTestId("send-count").fill("3");
    assertThat(sender.getByTestId("send-total")).containsText("15.00");
    sender.getByTestId("send-count").fill("2");
    assertThat(sender.getByTestId("send-total")).containsText("10.00");
    sender.getByTestId("send-password").fill("芝麻开门");
    sender.evaluate("window.scrollTo(0, 0)");
    screenshot(sender, "11-send-fixed");
    sender.getByTestId("send-submit").click();
    assertThat(sender.getByTestId("share-summary")).hasText("普通红包 · 2 个 · ¥10.00");
    String packetId = packetIdOf(sender);
    JsonObject sent =
        service.api().get("/api/v1/packets/" + packetId, service.api().token(dave)).json();
    assertThat(sent.getLong("amount")).isEqualTo(1_000);
    assertThat(sent.getString("type")).isEqualTo("FIXED");

    Page grabber = phone("en");
    signIn(grabber, bob);
    grabber.navigate(base + "/#/grab/" + packetId);
    assertThat(grabber.getByTestId("envelope-kind")).hasAttribute("data-password", "true");
    assertThat(grabber.getByTestId("envelope-kind")).containsText("Password packet");
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
    assertThat(page.getByTestId("switches")).containsText("抢红包");
    assertThat(page.getByTestId("switches")).not().containsText("grabbing");
    assertThat(page.getByTestId("switches")).not().containsText("withdrawals");
    Locator sending = page.getByTestId("switch-sending");
    assertThat(sending).isChecked();
    try {
      // Turning a switch off asks first; cancelling leaves it on, on the server too.
      sending.click();
      assertThat(page.getByTestId("confirm")).containsText("发红包");
      page.getByTestId("confirm-cancel").click();
      assertThat(sending).isEnabled();
      assertThat(sending).isChecked();
      assertThat(sendingSwitch()).isTrue();
      // The toggle is usable again only once the server has answered, showing the server's state.
      sending.click();
      assertThat(sending).isDisabled();
      page.getByTestId("confirm-ok").click();
      assertThat(sending).isEnabled();
      assertThat(sending).not().isChecked();
      assertThat(sendingSwitch()).isFalse();
      sending.click();
      assertThat(sending).isEnabled();
      assertThat(sending).isChecked();
      assertThat(sendingSwitch()).isTrue();
    } finally {
      // Every test class of this JVM shares the switches: never leave sending off for them.
      service
          .api()
          .put("/api/v1/admin/switches/sending", service.api().adminToken(), "{\"enabled\":true}");
    }
    assertThat(page.getByRole(AriaRole.HEADING).first()).isVisible();
    screenshot(page, "09-admin");

    // Signing out forgets the admin token with the user's.
    page.locator("#signout").click();
    assertThat(page.getByTestId("signin-user")).isVisible();
    assertThat(page.evaluate("localStorage.getItem('hb.adminToken')")).isNull();
    assertThat(page.locator("#tabs")).isHidden();
    page.context().close();
  }

  private boolean sendingSwitch() {
    return service
        .api()
        .get("/api/v1/admin/switches", service.api().adminToken())
        .json()
        .getBoolean("sending");
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

  @Test
  @Order(8)
  void packetLists_showWhatISent_andWhatIReceived_withMyShare() {
    String frank = "frank-" + UUID.randomUUID().toString().substring(0, 6);
    String grace = "grace-" + UUID.randomUUID().toString().substring(0, 6);
    assertThat(service.api().topUp(frank, 10_000).status()).isEqualTo(200);
    String frankToken = service.api().token(frank);
    var first =
        service
            .api()
            .send(
                frankToken,
                JsonObject.of("amount", 600, "count", 2, "type", "FIXED", "greeting", "第一个红包"));
    var second =
        service
            .api()
            .send(
                frankToken,
                JsonObject.of("amount", 900, "count", 3, "type", "FIXED", "greeting", "第二个红包"));
    assertThat(first.status()).isEqualTo(201);
    assertThat(second.status()).isEqualTo(201);
    String firstId = first.json().getString("id");
    String secondId = second.json().getString("id");
    assertThat(service.api().grab(service.api().token(grace), firstId).status()).isEqualTo(200);

    Page sender = phone("zh");
    signIn(sender, frank);
    sender.locator("#tabs a[data-tab=packets]").click();
    sender.getByTestId("box-sent").click();
    Locator sent = sender.getByTestId("packet-item");
    assertThat(sent).hasCount(2);
    // Newest first.
    assertThat(sent.nth(0)).hasAttribute("data-id", secondId);
    assertThat(sent.nth(0)).containsText("第二个红包");
    assertThat(sent.nth(0)).containsText("¥9.00");
    assertThat(sent.nth(1)).containsText("已领取 1/2 个");
    assertThat(sender.getByTestId("packet-summary")).hasText("共发出 2 个红包");
    screenshot(sender, "12-packets-sent");
    sender.getByTestId("box-received").click();
    assertThat(sender.getByTestId("packet-empty")).hasText("还没有收到红包");

    Page grabber = phone("zh");
    signIn(grabber, grace);
    // The list carries each item's share: one request a page, none per item.
    List<String> packetRequests = new CopyOnWriteArrayList<>();
    grabber.onRequest(
        request -> {
          if (request.url().contains("/api/v1/packets")) {
            packetRequests.add(request.url());
          }
        });
    grabber.navigate(base + "/#/packets");
    Locator received = grabber.getByTestId("packet-item");
    assertThat(received).hasCount(1);
    assertThat(received).hasAttribute("data-id", firstId);
    assertThat(received).containsText(frank + "的红包");
    assertThat(received.getByTestId("packet-amount")).containsText("¥3.00");
    assertThat(packetRequests).isNotEmpty().allMatch(url -> url.contains("?box=received"));
    screenshot(grabber, "13-packets-received");
    received.locator("a").click();
    assertThat(grabber.getByTestId("my-share")).containsText("3.00");
    grabber.context().close();
    sender.context().close();
  }

  @Test
  @Order(9)
  void exclusiveEnvelope_saysItIsExclusive_beforeItIsOpened() {
    String hana = "hana-" + UUID.randomUUID().toString().substring(0, 6);
    assertThat(service.api().topUp(hana, 10_000).status()).isEqualTo(200);
    var sent =
        service
            .api()
            .send(
                service.api().token(hana),
                JsonObject.of(
                    "amount", 500, "count", 1, "type", "EXCLUSIVE", "recipients", List.of(bob)));
    assertThat(sent.status()).isEqualTo(201);
    String packetId = sent.json().getString("id");

    Page stranger = phone("zh");
    signIn(stranger, alice);
    stranger.navigate(base + "/#/grab/" + packetId);
    assertThat(stranger.getByTestId("envelope-kind")).containsText("专属红包");
    assertThat(stranger.getByTestId("envelope-kind")).containsText("仅限指定的人领取");
    stranger.getByTestId("grab-open").click();
    assertThat(stranger.getByTestId("grab-result")).hasAttribute("data-outcome", "NOT_ELIGIBLE");

    Page recipient = phone("zh");
    signIn(recipient, bob);
    recipient.navigate(base + "/#/grab/" + packetId);
    assertThat(recipient.getByTestId("envelope-kind")).hasAttribute("data-type", "EXCLUSIVE");
    screenshot(recipient, "14-grab-exclusive");
    recipient.getByTestId("grab-open").click();
    assertThat(recipient.getByTestId("grab-amount")).containsText("5.00");
    recipient.context().close();
    stranger.context().close();
  }

  @Test
  @Order(10)
  void refusals_sayWhy_withTheServersLimits_andNoTabsBeforeSignIn() {
    Page page = phone("zh");
    assertThat(page.getByTestId("signin-user")).isVisible();
    assertThat(page.locator("#tabs")).isHidden();
    page.getByTestId("signin-user").fill("张三");
    page.getByTestId("signin-submit").click();
    assertThat(page.getByTestId("signin-error")).containsText("不支持中文");
    assertThat(page.getByTestId("signin-error")).containsText("zhangsan");

    signIn(page, alice);
    assertThat(page.locator("#tabs")).isVisible();
    page.navigate(base + "/#/send");
    page.getByTestId("send-amount").fill("300000");
    page.getByTestId("send-count").fill("1");
    page.getByTestId("send-submit").click();
    assertThat(page.getByTestId("amount-error")).containsText("¥200,000.00");
    page.getByTestId("send-amount").fill("1");
    page.getByTestId("send-count").fill("20000");
    page.getByTestId("send-submit").click();
    assertThat(page.getByTestId("count-error")).containsText("1 到 10000");
    page.context().close();
  }

  @Test
  @Order(11)
  void withoutDevMode_signsInByPastedToken_orThroughTheLoginPage_andSharesUnderThePublicUrl() {
    String secret = "web-ui-test-secret-" + UUID.randomUUID();
    String publicUrl = "https://hongbao.example.com";
    String loginUrl = "https://login.example.com/authorize";
    try (TestService strict =
        TestService.start(
            Backends.embedded(),
            Map.of(
                "HONGBAO_DEV_MODE",
                "false",
                "HONGBAO_BIND",
                "127.0.0.1",
                "HONGBAO_JWT_SECRET",
                secret,
                "HONGBAO_PUBLIC_URL",
                publicUrl + "/",
                "HONGBAO_LOGIN_URL",
                loginUrl),
            false)) {
      String strictBase = "http://127.0.0.1:" + strict.hongbao().port();
      var tokens = new Tokens(secret, Clock.systemUTC());
      String ivy = "ivy-" + UUID.randomUUID().toString().substring(0, 6);
      String ivyToken = tokens.mint(ivy, false, Duration.ofHours(1));
      var topUp =
          strict
              .api()
              .post(
                  "/api/v1/admin/topups",
                  tokens.mint("ops", true, Duration.ofHours(1)),
                  Map.of("Idempotency-Key", UUID.randomUUID().toString()),
                  JsonObject.of("userId", ivy, "amount", 1_000).encode());
      assertThat(topUp.status()).isEqualTo(200);

      // A pasted token: a bad one is refused in words, a good one signs in as its subject.
      Page page = phone("zh");
      page.navigate(strictBase + "/#/signin");
      assertThat(page.getByTestId("signin-user")).hasCount(0);
      assertThat(page.locator("#tabs")).isHidden();
      page.getByTestId("signin-token").fill(tokens.mint(ivy, false, Duration.ofHours(1)) + "x");
      page.getByTestId("signin-token-submit").click();
      assertThat(page.getByTestId("signin-error")).hasText("令牌无效或已过期");
      page.getByTestId("signin-token").fill(ivyToken);
      screenshot(page, "15-signin-token");
      page.getByTestId("signin-token-submit").click();
      assertThat(page.getByTestId("balance")).containsText("10.00");
      assertThat(page.locator("#who")).hasText(ivy);

      // Share links and QR codes name the public address, not the one the browser used.
      page.navigate(strictBase + "/#/send");
      page.getByTestId("send-amount").fill("2");
      page.getByTestId("send-count").fill("2");
      page.getByTestId("send-submit").click();
      String packetId = packetIdOf(page);
      assertThat(page.getByTestId("share-link")).hasValue(publicUrl + "/#/grab/" + packetId);
      assertThat(decodeQr(page.getByTestId("share-qr-image")))
          .isEqualTo(publicUrl + "/#/grab/" + packetId);
      page.locator("#signout").click();

      // The login page: the UI sends people there and takes the token they come back with.
      String jun = "jun-" + UUID.randomUUID().toString().substring(0, 6);
      String junToken = tokens.mint(jun, false, Duration.ofHours(1));
      page.context()
          .route(
              loginUrl + "**",
              route -> {
                String back =
                    URLDecoder.decode(
                        route.request().url().replaceFirst(".*redirect_uri=", ""),
                        StandardCharsets.UTF_8);
                route.fulfill(
                    new Route.FulfillOptions()
                        .setStatus(302)
                        .setHeaders(Map.of("Location", back + "#token=" + junToken)));
              });
      page.navigate(strictBase + "/#/grab/" + packetId);
      page.getByTestId("signin-login").click();
      assertThat(page.getByTestId("envelope")).isVisible();
      assertThat(page.locator("#who")).hasText(jun);
      assertThat(page).not().hasURL(Pattern.compile(".*token=.*"));
      page.getByTestId("grab-open").click();
      assertThat(page.getByTestId("grab-result")).hasAttribute("data-outcome", "GRABBED");
      page.context().close();
      strict.assertReconciled();
    }
  }

  @Test
  @Order(12)
  void openedEnvelope_saysPaying_whilePayoutsWait_andReceived_onceTheWalletHasIt() {
    String kai = "kai-" + UUID.randomUUID().toString().substring(0, 6);
    assertThat(service.api().topUp(kai, 10_000).status()).isEqualTo(200);
    String packetId = service.api().sendLucky(service.api().token(kai), 300, 3, 3600);
    var switches = service.hongbao().parts().switches();
    Page grabber = phone("zh");
    signIn(grabber, bob);
    grabber.navigate(base + "/#/grab/" + packetId);
    switches.set(Switch.PAYOUTS, false);
    try {
      grabber.getByTestId("grab-open").click();
      assertThat(grabber.getByTestId("grab-result")).hasAttribute("data-outcome", "GRABBED");
      assertThat(grabber.getByTestId("grab-payout")).hasText("入账中，稍后存入钱包");
      grabber.waitForTimeout(1_500); // a refresh or two: still waiting, still saying so
      assertThat(grabber.getByTestId("grab-payout")).hasAttribute("data-paid", "false");
      assertThat(grabber.getByTestId("luck")).containsText("入账中");
    } finally {
      switches.set(Switch.PAYOUTS, true);
    }
    assertThat(grabber.getByTestId("grab-payout")).hasAttribute("data-paid", "true");
    assertThat(grabber.getByTestId("grab-payout")).hasText("已领取，已存入钱包");
    grabber.context().close();
  }
}
