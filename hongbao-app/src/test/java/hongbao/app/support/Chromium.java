package hongbao.app.support;

import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's chromium, headless, driven by Playwright, for the browser tests: Playwright's own
 * browser builds are never downloaded (this machine reaches no place that serves them), so a
 * machine without {@code /usr/bin/chromium} skips these tests rather than failing them. Pages are
 * phone-sized, and their photographs go to {@code target/screenshots/} of the module ({@code
 * docs/screenshots/}, the README's copies, with {@code -Dhongbao.update-screenshots=true}).
 */
public final class Chromium implements AutoCloseable {

  public static final Path EXECUTABLE = Path.of("/usr/bin/chromium");
  public static final int PHONE_WIDTH = 390;
  public static final int PHONE_HEIGHT = 844;

  /**
   * Payouts and withdrawals settle through workers on a machine other builds share: the pages'
   * actions wait this long, not Playwright's default.
   */
  public static final double TIMEOUT_MILLIS = 15_000;

  /** No sandbox (the tests run as root), no GPU, and nothing that calls out to the network. */
  private static final List<String> ARGS =
      List.of(
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync");

  private final Playwright playwright;
  private final Browser browser;

  private Chromium(Playwright playwright, Browser browser) {
    this.playwright = playwright;
    this.browser = browser;
  }

  /** Starts the browser; skips the calling test (class) when chromium is not installed. */
  public static Chromium launch() {
    Assumptions.assumeTrue(
        Files.isExecutable(EXECUTABLE),
        "browser tests skipped: no chromium at " + EXECUTABLE + " (apt-get install -y chromium)");
    Playwright playwright =
        Playwright.create(
            new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
    try {
      Browser browser =
          playwright
              .chromium()
              .launch(
                  new BrowserType.LaunchOptions()
                      .setExecutablePath(EXECUTABLE)
                      .setHeadless(true)
                      .setArgs(ARGS));
      return new Chromium(playwright, browser);
    } catch (RuntimeException e) {
      playwright.close();
      throw e;
    }
  }

  /**
   * A phone-sized browser of its own (own cookies and localStorage) in {@code locale} ("zh-CN",
   * "en-US").
   */
  public BrowserContext phone(String locale) {
    BrowserContext context =
        browser.newContext(
            new Browser.NewContextOptions()
                .setViewportSize(PHONE_WIDTH, PHONE_HEIGHT)
                .setDeviceScaleFactor(2)
                .setLocale(locale));
    context.setDefaultTimeout(TIMEOUT_MILLIS);
    return context;
  }

  /** Photographs what {@code page} shows as {@code name}.png, once transitions have settled. */
  public static void screenshot(Page page, String name) {
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
  public static Path screenshots() {
    Path here = Path.of("").toAbsolutePath();
    boolean inModule = here.getFileName().toString().equals("hongbao-app");
    Path module = inModule ? here : here.resolve("hongbao-app");
    Path dir =
        Boolean.getBoolean("hongbao.update-screenshots")
            ? module.getParent().resolve("docs").resolve("screenshots")
            : module.resolve("target/screenshots");
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    try {
      browser.close();
    } finally {
      playwright.close();
    }
  }
}
