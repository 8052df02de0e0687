package hongbao.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.StaticHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The API's own description: the OpenAPI document at {@value #DOCUMENT_PATH} and Swagger UI over it
 * at {@value #UI_PATH}. The document is a resource written by hand and kept honest by a test that
 * compares it with the router's routes and runs its examples against the server.
 */
public final class ApiDescription implements HttpApi.Routes {

  public static final String DOCUMENT_PATH = "/openapi.json";
  public static final String UI_PATH = "/docs";

  /** The OpenAPI document on the class path. */
  public static final String DOCUMENT_RESOURCE = "openapi.json";

  private static final String PAGES = "apidocs";
  private static final String WEBJAR = "META-INF/resources/webjars/swagger-ui/";
  private static final String WEBJAR_POM = "META-INF/maven/org.webjars/swagger-ui/pom.properties";

  private final Buffer document = Buffer.buffer(resource(DOCUMENT_RESOURCE));
  private final Buffer page = Buffer.buffer(resource(PAGES + "/index.html"));
  private final String swaggerUi = WEBJAR + webjarVersion();

  @Override
  public void mount(Router router) {
    router
        .get(DOCUMENT_PATH)
        .handler(
            ctx ->
                ctx.response()
                    .putHeader("content-type", "application/json; charset=utf-8")
                    .end(document));
    router
        .get(UI_PATH)
        .handler(
            ctx -> ctx.response().putHeader("content-type", "text/html; charset=utf-8").end(page));
    // Our page and its initializer first; Swagger UI's scripts and styles from the webjar.
    router.get(UI_PATH + "/*").handler(StaticPaths::refuseEncodedSeparators);
    router.get(UI_PATH + "/*").handler(StaticHandler.create(PAGES).setIndexPage("index.html"));
    router.get(UI_PATH + "/*").handler(StaticHandler.create(swaggerUi));
  }

  private static byte[] resource(String name) {
    try (InputStream in = ApiDescription.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The webjar's files sit under its version: read it from the jar rather than repeat it here. */
  private static String webjarVersion() {
    var properties = new Properties();
    try (InputStream in = ApiDescription.class.getClassLoader().getResourceAsStream(WEBJAR_POM)) {
      if (in == null) {
        throw new IllegalStateException("the swagger-ui webjar is not on the class path");
      }
      properties.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return properties.getProperty("version");
  }
}
