package hongbao.http;

import com.google.zxing.BarcodeFormat;
import com.google.zxing.EncodeHintType;
import com.google.zxing.WriterException;
import com.google.zxing.common.BitMatrix;
import com.google.zxing.qrcode.QRCodeWriter;
import com.google.zxing.qrcode.decoder.ErrorCorrectionLevel;
import hongbao.core.packet.PacketLimits;
import hongbao.core.packet.SendRules;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.HostAndPort;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Map;

/**
 * What the web UI needs besides the API: its settings before anyone signs in (dev mode or where to
 * sign in, the public address, the send limits to name in errors), and a packet's share link as a
 * QR code drawn by ZXing, so the UI carries no encoder of its own.
 */
public final class WebUiRoutes implements HttpApi.Routes {

  /** Outside {@code /api/}: the sign-in page reads it before there is a token. */
  public static final String SETTINGS_PATH = "/ui/settings";

  public static final String QR_PATH = "/api/v1/packets/:id/qr.svg";

  /** The white border QR readers need around the code, in modules (the standard asks for 4). */
  private static final int QUIET_ZONE_MODULES = 4;

  private final HttpServices services;
  private final WebUiSettings settings;

  public WebUiRoutes(HttpServices services, WebUiSettings settings) {
    this.services = services;
    this.settings = settings;
  }

  @Override
  public void mount(Router router) {
    router.get(SETTINGS_PATH).handler(this::settings);
    router.get(QR_PATH).handler(this::qr);
  }

  private void settings(RoutingContext ctx) {
    PacketLimits limits = services.send().limits();
    HttpApi.json(
        ctx,
        200,
        new JsonObject()
            .put("devMode", services.devMode())
            .put("loginUrl", settings.loginUrl())
            .put("publicUrl", settings.publicUrl())
            .put("userIdPattern", SendRules.USER_ID.pattern())
            .put(
                "limits",
                new JsonObject()
                    .put("maxCount", limits.maxCount())
                    .put("maxAmount", limits.maxAmountFen())
                    .put("maxExpirySeconds", limits.maxExpirySeconds())
                    .put("maxGreetingLength", limits.maxGreetingLength())
                    .put("maxPasswordLength", limits.maxPasswordLength())));
  }

  private void qr(RoutingContext ctx) {
    String id = ctx.pathParam("id");
    long packetId = services.packetIds().decode(id);
    if (packetId < 0) {
      throw ApiError.notFound("no such packet");
    }
    String link = settings.shareLink(origin(ctx.request()), id);
    // No QR code for an id nobody was given. Unordered: QR requests on one event loop must not
    // queue behind each other.
    ctx.vertx()
        .executeBlocking(() -> services.details().requireExists(packetId), false)
        .onComplete(
            found -> {
              if (found.failed()) {
                ctx.fail(found.cause());
                return;
              }
              ctx.response()
                  .putHeader("content-type", "image/svg+xml; charset=utf-8")
                  .putHeader("cache-control", "private, max-age=3600")
                  .end(svg(link));
            });
  }

  private static String origin(HttpServerRequest request) {
    HostAndPort authority = request.authority();
    String host = authority == null ? "localhost" : authority.host();
    int port = authority == null ? -1 : authority.port();
    return request.scheme() + "://" + host + (port > 0 ? ":" + port : "");
  }

  /** {@code text} as a QR code: one square per dark module on a white ground with its border. */
  static String svg(String text) {
    BitMatrix matrix;
    try {
      matrix =
          new QRCodeWriter()
              .encode(
                  text,
                  BarcodeFormat.QR_CODE,
                  0,
                  0,
                  Map.of(
                      EncodeHintType.ERROR_CORRECTION,
                      ErrorCorrectionLevel.M,
                      EncodeHintType.CHARACTER_SET,
                      "UTF-8",
                      EncodeHintType.MARGIN,
                      QUIET_ZONE_MODULES));
    } catch (WriterException e) {
      throw ApiError.invalid("the share link does not fit in a QR code");
    }
    int width = matrix.getWidth();
    int height = matrix.getHeight();
    var path = new StringBuilder();
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        if (matrix.get(x, y)) {
          path.append('M').append(x).append(' ').append(y).append("h1v1h-1z");
        }
      }
    }
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" shape-rendering=\"crispEdges\">"
            .formatted(width, height)
        + "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>"
        + "<path fill=\"#000\" d=\""
        + path
        + "\"/></svg>";
  }
}
