package hongbao.app.api;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.app.support.Api;
import hongbao.app.support.Backends;
import hongbao.app.support.TestService;
import hongbao.http.ApiDescription;
import hongbao.kafka.embedded.EmbeddedKafka;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Route;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.validation.ResponseValidator;
import io.vertx.openapi.validation.ValidatableResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Keeps {@code /openapi.json} honest: every route the router serves is in the document and every
 * documented route is served, and every example in it, run against the real service (rewards
 * included), answers the status it names with a body its schema accepts.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenApiDocumentTest {

  /** Served but not part of the API: the page that renders the document. */
  private static final Set<String> NOT_API = Set.of("GET " + ApiDescription.UI_PATH);

  private static final String SVG = "image/svg+xml";

  private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch");

  private EmbeddedKafka kafka;
  private TestService service;
  private Api api;
  private Vertx vertx;
  private JsonObject document;
  private OpenAPIContract contract;
  private String user;
  private String userToken;
  private String adminToken;
  private final Map<String, String> concretePaths = new HashMap<>();

  @BeforeAll
  void start() {
    kafka = EmbeddedKafka.start();
    service =
        TestService.start(
            Backends.embedded(), Map.of("HONGBAO_KAFKA_BOOTSTRAP", kafka.bootstrap()), true);
    api = service.api();
    vertx = Vertx.vertx();
    Api.Response served = api.get(ApiDescription.DOCUMENT_PATH, null);
    assertThat(served.status()).isEqualTo(200);
    document = served.json();
    // Parsing checks the document against the OpenAPI 3.1 schema and resolves every $ref.
    contract = OpenAPIContract.from(vertx, validatable(document)).await();
    user = "doc-" + UUID.randomUUID().toString().substring(0, 8);
    userToken = api.token(user);
    adminToken = api.adminToken();
    fixtures();
  }

  /**
   * A copy without the answers the validator cannot read (the QR code's SVG): it refuses a contract
   * naming media types other than JSON, text and binary. Their type is checked by {@link
   * #validate}.
   */
  private static JsonObject validatable(JsonObject document) {
    JsonObject copy = document.copy();
    JsonObject paths = copy.getJsonObject("paths");
    for (String path : paths.fieldNames()) {
      JsonObject item = paths.getJsonObject(path);
      for (String method : item.fieldNames()) {
        JsonObject responses = item.getJsonObject(method).getJsonObject("responses");
        for (String status : responses.fieldNames()) {
          JsonObject content = responses.getJsonObject(status).getJsonObject("content");
          if (content != null) {
            content.remove(SVG);
          }
        }
      }
    }
    return copy;
  }

  /** Objects the examples' paths name: a packet, an activity, a withdrawal, a campaign. */
  private void fixtures() {
    assertThat(api.topUp(user, 1_000_000).status()).isEqualTo(200);
    String packet = api.sendLucky(userToken, 1000, 10, 3600);
    Api.Response activity =
        api.post(
            "/api/v1/admin/activities",
            adminToken,
            Map.of(),
            JsonObject.of("name", "docs", "maxGrabsPerUser", 3).encode());
    Api.Response withdrawal =
        api.post(
            "/api/v1/withdrawals",
            userToken,
            Map.of("Idempotency-Key", UUID.randomUUID().toString()),
            JsonObject.of("amount", 100).encode());
    assertThat(withdrawal.status()).as(withdrawal.raw()).isEqualTo(202);
    JsonObject round =
        JsonObject.of(
            "startsAt",
            java.time.Instant.now().plusSeconds(3600).toString(),
            "durationSeconds",
            60,
            "prizes",
            new JsonArray().add(JsonObject.of("type", "CASH", "amount", 100, "count", 10)));
    Api.Response campaign =
        api.post(
            "/api/v1/admin/campaigns",
            adminToken,
            Map.of("Idempotency-Key", UUID.randomUUID().toString()),
            JsonObject.of(
                    "name",
                    "docs",
                    "budget",
                    1000,
                    "rounds",
                    new JsonArray().add(round),
                    "maxWinsPerUser",
                    1,
                    "tapsPerUserPerSecond",
                    5)
                .encode());
    assertThat(campaign.status()).as(campaign.raw()).isEqualTo(201);
    String campaignId = campaign.json().getString("id");
    concretePaths.put("/api/v1/campaigns/{id}", "/api/v1/campaigns/" + campaignId);
    concretePaths.put("/api/v1/campaigns/{id}/taps", "/api/v1/campaigns/" + campaignId + "/taps");
    concretePaths.put(
        "/api/v1/admin/campaigns/{id}/live", "/api/v1/admin/campaigns/" + campaignId + "/live");
    concretePaths.put("/api/v1/admin/campaigns/{id}", "/api/v1/admin/campaigns/" + campaignId);
    concretePaths.put("/api/v1/admin/switches/{name}", "/api/v1/admin/switches/payouts");
    concretePaths.put("/api/v1/admin/reward-types/{type}", "/api/v1/admin/reward-types/TEA_COUPON");
    concretePaths.put("/api/v1/packets/{id}", "/api/v1/packets/" + packet);
    concretePaths.put("/api/v1/packets/{id}/grab", "/api/v1/packets/" + packet + "/grab");
    concretePaths.put("/api/v1/packets/{id}/qr.svg", "/api/v1/packets/" + packet + "/qr.svg");
    concretePaths.put("/api/v1/packets/{id}/claims", "/api/v1/packets/" + packet + "/claims");
    concretePaths.put(
        "/api/v1/activities/{id}", "/api/v1/activities/" + activity.json().getString("id"));
    concretePaths.put(
        "/api/v1/withdrawals/{id}", "/api/v1/withdrawals/" + withdrawal.json().getString("id"));
    // No claim was refused here: the examples are of a number no refused claim has.
    concretePaths.put(
        "/api/v1/admin/refused-claims/{id}/resolve",
        "/api/v1/admin/refused-claims/999999999/resolve");
    concretePaths.put(
        "/api/v1/admin/withdrawals/{id}/fail",
        "/api/v1/admin/withdrawals/" + withdrawal.json().getString("id") + "/fail");
  }

  @AfterAll
  void stop() {
    if (vertx != null) {
      vertx.close().await();
    }
    try {
      if (service != null) {
        service.close();
      }
    } finally {
      kafka.close();
    }
  }

  @Test
  void everyServedRoute_isDocumented_andEveryDocumentedRoute_isServed() {
    Set<String> served = servedRoutes();
    Set<String> documented = documentedRoutes();

    var undocumented = new TreeSet<>(served);
    undocumented.removeAll(documented);
    undocumented.removeAll(NOT_API);
    assertThat(undocumented).as("served routes missing from openapi.json").isEmpty();

    var unserved = new TreeSet<>(documented);
    unserved.removeAll(served);
    assertThat(unserved).as("documented routes the server does not have").isEmpty();
    assertThat(documented)
        .as("the page of the document is not an API route")
        .doesNotContainAnyElementsOf(NOT_API);
  }

  @Test
  void everyExample_answersItsStatus_withABodyItsSchemaAccepts() {
    var failures = new ArrayList<String>();
    int run = 0;
    for (Operation operation : operations()) {
      if (!servedRoutes().contains(operation.route())) {
        continue;
      }
      for (Example example : operation.examples()) {
        run++;
        Api.Response response = call(operation, example.body());
        String label = operation.route() + " example " + example.name();
        if (response.status() != example.status()) {
          failures.add(label + ": expected " + example.status() + ", got " + response);
          continue;
        }
        String problem = validate(operation, response);
        if (problem != null) {
          failures.add(label + ": " + problem);
        }
      }
    }
    assertThat(failures).isEmpty();
    assertThat(run).as("examples run").isGreaterThan(30);
  }

  /**
   * Every POST and PUT the document shows with a JSON body refuses that body with one field more,
   * naming the field: a misspelt option must never be taken as its default.
   */
  @Test
  void everyPostAndPut_refusesAnUnknownField_namingIt() {
    var failures = new ArrayList<String>();
    var checked = new TreeSet<String>();
    for (Operation operation : operations()) {
      boolean writes = operation.method().equals("POST") || operation.method().equals("PUT");
      if (!writes || !servedRoutes().contains(operation.route())) {
        continue;
      }
      for (Example example : operation.examples()) {
        if (example.body() == null || example.status() >= 300) {
          continue;
        }
        JsonObject body = example.body().copy().put("unexpectedField", 1);
        Api.Response response = call(operation, body);
        checked.add(operation.route());
        if (response.status() != 400
            || !"INVALID_REQUEST".equals(response.errorCode())
            || !response.raw().contains("'unexpectedField'")) {
          failures.add(operation.route() + " example " + example.name() + ": " + response);
        }
      }
    }
    assertThat(failures).isEmpty();
    assertThat(checked)
        .as("writes checked")
        .contains(
            "POST /api/v1/packets",
            "POST /api/v1/admin/campaigns",
            "PUT /api/v1/admin/campaigns/{id}",
            "POST /api/v1/campaigns/{id}/taps",
            "POST /api/v1/rewards",
            "POST /api/v1/withdrawals",
            "PUT /api/v1/admin/reward-types/{type}");
  }

  @Test
  void everyResponseExample_isAcceptedByItsOwnSchema() {
    var failures = new ArrayList<String>();
    int checked = 0;
    for (Operation operation : operations()) {
      JsonObject responses = operation.spec().getJsonObject("responses");
      for (String status : responses.fieldNames()) {
        JsonObject content = resolve(responses.getJsonObject(status)).getJsonObject("content");
        JsonObject json = content == null ? null : content.getJsonObject("application/json");
        if (json == null || !json.containsKey("examples")) {
          continue;
        }
        JsonObject examples = json.getJsonObject("examples");
        for (String name : examples.fieldNames()) {
          checked++;
          String body = examples.getJsonObject(name).getValue("value").toString();
          String problem = validate(operation, new Api.Response(Integer.parseInt(status), body));
          if (problem != null) {
            failures.add(operation.route() + " " + status + " example " + name + ": " + problem);
          }
        }
      }
    }
    assertThat(failures).isEmpty();
    assertThat(checked).as("response examples checked").isGreaterThan(40);
  }

  @Test
  void docs_showSwaggerUi_overThisDocument() {
    Api.Response page = api.get(ApiDescription.UI_PATH, null);
    assertThat(page.status()).isEqualTo(200);
    assertThat(page.raw()).contains("/docs/swagger-ui-bundle.js", "/docs/hongbao-docs.js");
    Api.Response initializer = api.get("/docs/hongbao-docs.js", null);
    assertThat(initializer.raw())
        .contains("url: \"/openapi.json\"")
        .doesNotContainIgnoringCase("petstore");
    assertThat(api.get("/docs/swagger-ui-bundle.js", null).status()).isEqualTo(200);
    assertThat(api.get("/docs/swagger-ui.css", null).status()).isEqualTo(200);
  }

  // --- the router and the document ----------------------------------------------------------

  /**
   * "METHOD /path/{param}" of every route with a method and an exact path: prefix routes ({@code
   * /*}, {@code /api/*}, {@code /docs/*}) are filters and static files, not operations.
   */
  private Set<String> servedRoutes() {
    var routes = new TreeSet<String>();
    for (Route route : service.hongbao().http().router().getRoutes()) {
      String path = route.getPath();
      Set<HttpMethod> methods = route.methods();
      if (path == null || !route.isExactPath() || methods == null || methods.isEmpty()) {
        continue;
      }
      String template = path.replaceAll(":([A-Za-z]+)", "{$1}");
      methods.forEach(method -> routes.add(method.name() + " " + template));
    }
    return routes;
  }

  private Set<String> documentedRoutes() {
    var routes = new TreeSet<String>();
    operations().forEach(operation -> routes.add(operation.route()));
    return routes;
  }

  private record Example(String name, JsonObject body, int status) {}

  private record Operation(String method, String path, JsonObject spec, List<Example> examples) {
    String route() {
      return method + " " + path;
    }

    String operationId() {
      return spec.getString("operationId");
    }
  }

  /**
   * Each operation with its request examples; one without a body is run once and must answer its
   * first documented 2xx.
   */
  private List<Operation> operations() {
    var operations = new ArrayList<Operation>();
    JsonObject paths = document.getJsonObject("paths");
    for (String path : paths.fieldNames()) {
      JsonObject item = paths.getJsonObject(path);
      for (String method : item.fieldNames()) {
        if (!METHODS.contains(method)) {
          continue;
        }
        JsonObject spec = item.getJsonObject(method);
        var examples = new ArrayList<Example>();
        JsonObject requestExamples =
            spec.containsKey("requestBody")
                ? spec.getJsonObject("requestBody")
                    .getJsonObject("content")
                    .getJsonObject("application/json")
                    .getJsonObject("examples", new JsonObject())
                : new JsonObject();
        for (String name : requestExamples.fieldNames()) {
          JsonObject example = requestExamples.getJsonObject(name);
          examples.add(
              new Example(name, example.getJsonObject("value"), example.getInteger("x-status")));
        }
        if (examples.isEmpty()) {
          int success =
              spec.getJsonObject("responses").fieldNames().stream()
                  .filter(code -> code.startsWith("2"))
                  .mapToInt(Integer::parseInt)
                  .min()
                  .orElseThrow();
          examples.add(new Example("(no body)", null, success));
        }
        operations.add(new Operation(method.toUpperCase(), path, spec, examples));
      }
    }
    return operations;
  }

  // --- running an example -------------------------------------------------------------------

  private Api.Response call(Operation operation, JsonObject body) {
    String path = operation.path();
    if (path.contains("{")) {
      path = concretePaths.get(path);
      assertThat(path).as("a fixture for " + operation.path()).isNotNull();
    }
    var headers = new HashMap<String, String>();
    var query = new StringBuilder();
    for (Object item : operation.spec().getJsonArray("parameters", new JsonArray())) {
      JsonObject parameter = resolve((JsonObject) item);
      String name = parameter.getString("name");
      Object example = parameter.getValue("example");
      switch (parameter.getString("in")) {
        case "header" ->
            headers.put(
                name,
                name.equals("Idempotency-Key") ? UUID.randomUUID().toString() : example.toString());
        case "query" -> {
          if (example != null) {
            query.append(query.isEmpty() ? '?' : '&').append(name).append('=').append(example);
          }
        }
        default -> {
          // path parameters come from the fixtures
        }
      }
    }
    var request =
        api.request(
            operation.method(),
            path + query,
            token(operation),
            headers,
            body == null ? null : body.encode());
    return api.call(request);
  }

  /** None for an operation open to all; the admin's for one requiring the admin role. */
  private String token(Operation operation) {
    JsonArray security =
        operation.spec().getJsonArray("security", document.getJsonArray("security"));
    if (security.isEmpty()) {
      return null;
    }
    boolean admin =
        security.stream()
            .map(JsonObject.class::cast)
            .anyMatch(requirement -> requirement.getJsonArray("bearer").contains("admin"));
    return admin ? adminToken : userToken;
  }

  private JsonObject resolve(JsonObject maybeRef) {
    String ref = maybeRef.getString("$ref");
    if (ref == null) {
      return maybeRef;
    }
    JsonObject target = document;
    for (String part : ref.substring(2).split("/")) {
      target = target.getJsonObject(part);
    }
    return target;
  }

  /**
   * Null when the contract's schema for the status accepts the body, else what it refused. A text
   * answer (the metrics) is checked for its media type only: the validator reads JSON.
   */
  private String validate(Operation operation, Api.Response response) {
    if (!response.raw().startsWith("{")) {
      JsonObject content =
          operation
              .spec()
              .getJsonObject("responses")
              .getJsonObject(Integer.toString(response.status()))
              .getJsonObject("content");
      String type = response.raw().startsWith("<") ? SVG : "text/plain";
      return content.containsKey(type) ? null : "a " + type + " answer documented otherwise";
    }
    try {
      ResponseValidator.create(vertx, contract)
          .validate(
              ValidatableResponse.create(
                  response.status(), Buffer.buffer(response.raw()), "application/json"),
              operation.operationId())
          .await();
      return null;
    } catch (RuntimeException e) {
      return e.getMessage() + " in " + response.raw();
    }
  }
}
