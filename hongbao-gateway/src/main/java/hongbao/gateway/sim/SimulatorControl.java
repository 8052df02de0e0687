package hongbao.gateway.sim;

import hongbao.gateway.GatewayProtocol;
import hongbao.gateway.GatewaySignature;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.net.URI;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The simulator's own controls over HTTP: what it saw, and new fault rates. Blocking. */
public final class SimulatorControl implements AutoCloseable {

  private final WebClient client;
  private final String base;
  private final GatewaySignature signature;

  public SimulatorControl(Vertx vertx, URI base, GatewaySignature signature) {
    this.client = WebClient.create(vertx);
    this.base = base.toString().replaceAll("/+$", "");
    this.signature = signature;
  }

  /** Counters: transfers, queries, transfersWithoutQuery, transfersOfSettled, paid, ... */
  public JsonObject stats() {
    return call(HttpMethod.GET, GatewaySimulator.STATS, "").bodyAsJsonObject();
  }

  public void faults(Faults faults) {
    HttpResponse<Buffer> answer =
        call(HttpMethod.PUT, GatewaySimulator.FAULTS, faults.toJson().encode());
    if (answer.statusCode() != 200) {
      throw new IllegalStateException("faults refused: " + answer.bodyAsString());
    }
  }

  private HttpResponse<Buffer> call(HttpMethod method, String path, String body) {
    try {
      return client
          .requestAbs(method, base + path)
          .putHeader(
              GatewayProtocol.SIGNATURE_HEADER,
              signature.sign(GatewaySignature.request(method.name(), path), body))
          .sendBuffer(Buffer.buffer(body))
          .toCompletionStage()
          .toCompletableFuture()
          .get(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while asking the gateway simulator", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("the gateway simulator did not answer " + path, e);
    }
  }

  @Override
  public void close() {
    client.close();
  }
}
