package hongbao.gateway;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.URI;
import java.time.Duration;

/**
 * A gateway that answers every request with the body a test sets, signed as the test says: how the
 * adapter is shown answers the simulator never gives.
 */
final class FakeGateway implements AutoCloseable {

  static final GatewaySignature SIGNATURE = new GatewaySignature("test-secret-0123456789");

  /** The signature header of an answer; null sends none. */
  interface Signer {
    String sign(String method, String path, String body);
  }

  /** As the gateway signs: the answer to this very request. */
  static final Signer THE_GATEWAYS =
      (method, path, body) -> SIGNATURE.sign(GatewaySignature.answer(method, path), body);

  private final Vertx vertx = Vertx.vertx();
  private final HttpServer server;
  volatile String answer = "";
  volatile Signer signer = THE_GATEWAYS;

  FakeGateway() {
    server =
        vertx
            .createHttpServer()
            .requestHandler(
                request -> {
                  String body = answer;
                  String signed = signer.sign(request.method().name(), request.path(), body);
                  var response = request.response().putHeader("content-type", "application/json");
                  if (signed != null) {
                    response.putHeader(GatewayProtocol.SIGNATURE_HEADER, signed);
                  }
                  response.end(body);
                })
            .listen(0, "127.0.0.1")
            .await();
  }

  /** The adapter, talking to this gateway with the shared secret. */
  HttpGateway adapter() {
    return new HttpGateway(
        vertx,
        URI.create("http://127.0.0.1:" + server.actualPort()),
        SIGNATURE,
        Duration.ofSeconds(2),
        () -> null);
  }

  @Override
  public void close() {
    server.close().await();
    vertx.close().await();
  }
}
