package hongbao.app.support;

import hongbao.gateway.GatewayProtocol;
import hongbao.gateway.GatewaySignature;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.RequestOptions;
import java.net.URI;

/**
 * Stands on the path between the service and the payment gateway and answers in the gateway's name:
 * it forwards each request as it is, or keeps it, and gives back the gateway's answer or one it
 * made up. What someone on the path could do, against the real gateway (the simulator).
 */
public final class ForgingProxy implements AutoCloseable {

  /** What the proxy does with a request. */
  public enum Forgery {
    /** Forwards it and gives back the gateway's answer, untouched. */
    NONE,
    /**
     * Forwards it (the gateway pays) and answers a refusal, carrying the signature of the gateway's
     * real answer: believed, the withdrawal would be given back although it was paid.
     */
    FAIL_AFTER_PAYING,
    /**
     * Keeps it from the gateway (nothing is paid) and answers a payment, signed with a secret the
     * proxy made up: believed, the withdrawal would be closed paid although nobody paid it.
     */
    SUCCESS_WITHOUT_SENDING
  }

  static final String REFUSED =
      "{\"result\":\"FAIL\",\"reason\":\"PAYEE_ACCOUNT_ABNORMAL\",\"retryable\":false}";

  private static final GatewaySignature ANOTHER_SECRET =
      new GatewaySignature("a-secret-the-proxy-made-up");

  private final URI gateway;
  private final HttpClient client;
  private final HttpServer server;
  private volatile Forgery forgery = Forgery.NONE;
  private volatile int forged;

  public ForgingProxy(Vertx vertx, URI gateway) {
    this.gateway = gateway;
    this.client = vertx.createHttpClient();
    this.server =
        vertx
            .createHttpServer()
            .requestHandler(
                request -> request.body().onSuccess(body -> answer(request, body.toString())))
            .listen(0, "127.0.0.1")
            .await();
  }

  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.actualPort());
  }

  public void forge(Forgery forgery) {
    this.forgery = forgery;
  }

  /** How many answers were forged so far. */
  public int forged() {
    return forged;
  }

  private void answer(HttpServerRequest request, String body) {
    Forgery now = forgery;
    if (now == Forgery.SUCCESS_WITHOUT_SENDING
        && request.path().equals(GatewayProtocol.TRANSFERS)) {
      forged++;
      String paid = "{\"result\":\"SUCCESS\",\"gatewayRef\":\"FORGED\",\"amount\":1}";
      reply(
          request,
          200,
          paid,
          ANOTHER_SECRET.sign(
              GatewaySignature.answer(request.method().name(), request.path()), paid));
      return;
    }
    forward(request, body)
        .onSuccess(
            response ->
                response
                    .body()
                    .onSuccess(
                        answered -> {
                          String signature = response.getHeader(GatewayProtocol.SIGNATURE_HEADER);
                          if (now == Forgery.FAIL_AFTER_PAYING
                              && request.path().equals(GatewayProtocol.TRANSFERS)) {
                            forged++;
                            reply(request, response.statusCode(), REFUSED, signature);
                          } else {
                            reply(request, response.statusCode(), answered.toString(), signature);
                          }
                        }))
        .onFailure(e -> request.connection().close());
  }

  private Future<HttpClientResponse> forward(HttpServerRequest request, String body) {
    var options =
        new RequestOptions()
            .setMethod(request.method())
            .setHost(gateway.getHost())
            .setPort(gateway.getPort())
            .setURI(request.uri());
    MultiMap headers = MultiMap.caseInsensitiveMultiMap().addAll(request.headers());
    headers.remove("host");
    headers.remove("content-length");
    options.setHeaders(headers);
    return client.request(options).compose(out -> out.send(Buffer.buffer(body)));
  }

  private static void reply(HttpServerRequest request, int status, String body, String signature) {
    var response =
        request.response().setStatusCode(status).putHeader("content-type", "application/json");
    if (signature != null) {
      response.putHeader(GatewayProtocol.SIGNATURE_HEADER, signature);
    }
    response.end(body);
  }

  @Override
  public void close() {
    server.close().await();
    client.close().await();
  }
}
