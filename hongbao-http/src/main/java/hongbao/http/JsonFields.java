package hongbao.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Strict readers for request bodies. Numbers must be JSON integer literals: {@code 100.0}, {@code
 * 1e2}, {@code "100"} and {@code true} are mistyped. An integer too large for a long is kept as out
 * of range (so it earns the field's range error, not a type error).
 */
public final class JsonFields {

  /** Stands in for an integer literal beyond the range of a long: outside every limit. */
  public static final long OUT_OF_RANGE = Long.MAX_VALUE;

  private final JsonObject json;

  private JsonFields(JsonObject json) {
    this.json = json;
  }

  /** Parses a body that must be one JSON object; an empty body is an empty object. */
  public static JsonFields parse(Buffer body) {
    if (body == null || body.length() == 0) {
      return new JsonFields(new JsonObject());
    }
    Object value;
    try {
      value = Buffer.buffer(body.getBytes()).toJsonValue();
    } catch (DecodeException e) {
      throw ApiError.invalid("the body is not valid JSON");
    }
    if (!(value instanceof JsonObject object)) {
      throw ApiError.invalid("the body must be a JSON object");
    }
    return new JsonFields(object);
  }

  public JsonObject json() {
    return json;
  }

  public long requiredInteger(String field) {
    Object value = json.getValue(field);
    if (value == null) {
      throw ApiError.invalid(field + " is required");
    }
    return integer(field, value);
  }

  /** An optional integer: null when absent or null. */
  public Long optionalInteger(String field) {
    Object value = json.getValue(field);
    return value == null ? null : integer(field, value);
  }

  private static long integer(String field, Object value) {
    return switch (value) {
      case Integer i -> i;
      case Long l -> l;
      case BigInteger b -> b.signum() < 0 ? Long.MIN_VALUE : OUT_OF_RANGE;
      default -> throw ApiError.invalid(field + " must be an integer");
    };
  }

  public String requiredString(String field) {
    String value = optionalString(field);
    if (value == null) {
      throw ApiError.invalid(field + " is required");
    }
    return value;
  }

  public String optionalString(String field) {
    Object value = json.getValue(field);
    if (value == null) {
      return null;
    }
    if (!(value instanceof String text)) {
      throw ApiError.invalid(field + " must be a string");
    }
    return text;
  }

  public boolean optionalBoolean(String field, boolean absent) {
    Object value = json.getValue(field);
    if (value == null) {
      return absent;
    }
    if (!(value instanceof Boolean flag)) {
      throw ApiError.invalid(field + " must be true or false");
    }
    return flag;
  }

  /** An optional array of strings: null when absent or null. */
  public List<String> optionalStrings(String field) {
    Object value = json.getValue(field);
    if (value == null) {
      return null;
    }
    if (!(value instanceof JsonArray array)) {
      throw ApiError.invalid(field + " must be an array of strings");
    }
    var strings = new ArrayList<String>(array.size());
    for (Object element : array) {
      if (!(element instanceof String text)) {
        throw ApiError.invalid(field + " must be an array of strings");
      }
      strings.add(text);
    }
    return strings;
  }

  public <E extends Enum<E>> E requiredEnum(String field, Class<E> type) {
    String name = requiredString(field);
    try {
      return Enum.valueOf(type, name);
    } catch (IllegalArgumentException e) {
      throw ApiError.invalid(
          field + " must be one of " + java.util.Arrays.toString(type.getEnumConstants()));
    }
  }
}
