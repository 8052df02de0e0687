package hongbao.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import hongbao.core.Text;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Strict readers for request bodies. Numbers must be JSON integer literals: {@code 100.0}, {@code
 * 1e2}, {@code "100"} and {@code true} are mistyped. An integer too large for a long is kept as out
 * of range (so it earns the field's range error, not a type error).
 *
 * <p>A body is refused before any field is read when it is not UTF-8, names a field twice (a
 * lenient parser keeps the last value, so two readers of one body could disagree about it), names a
 * field the endpoint does not know (a misspelt {@code pasword} would otherwise send an open
 * packet), or holds a string no store can keep: U+0000, which PostgreSQL refuses in text, or half
 * of a surrogate pair, which has no UTF-8 form and would be stored as {@code ?}.
 */
public final class JsonFields {

  /** Stands in for an integer literal beyond the range of a long: outside every limit. */
  public static final long OUT_OF_RANGE = Long.MAX_VALUE;

  /** The deepest body the API needs is an object holding an array; a little room beyond it. */
  static final int MAX_DEPTH = 8;

  /** Field names quoted in error messages are cut to this many characters. */
  private static final int QUOTED_NAME_MAX = 64;

  /** "-9223372036854775808": no longer literal is a long (JSON has no leading zeros). */
  private static final int LONGEST_LONG_LITERAL = 20;

  /** Stands in for an integer literal longer than any long: only its sign is ever read. */
  private static final BigInteger BEYOND_LONG = BigInteger.ONE.shiftLeft(64);

  /**
   * No limit on a number's length beyond the body's own: Jackson's default (1,000 characters) made
   * a long integer literal "not valid JSON" where it is valid JSON out of range ({@link
   * #integerLiteral}).
   */
  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxNestingDepth(MAX_DEPTH)
                  .maxNumberLength(Integer.MAX_VALUE)
                  .build())
          .build();

  private final JsonObject json;

  private JsonFields(JsonObject json) {
    this.json = json;
  }

  /**
   * Parses a body that must be one JSON object whose fields are among {@code field} and {@code
   * more}; an empty body is an empty object. Naming at least one field is required by the
   * signature, so that a handler cannot forget the list and refuse every body.
   */
  public static JsonFields parse(Buffer body, String field, String... more) {
    JsonObject object =
        body == null || body.length() == 0 || isEmptyObject(body)
            ? new JsonObject()
            : parseObject(utf8(body));
    var known = new ArrayList<String>(1 + more.length);
    known.add(field);
    known.addAll(List.of(more));
    for (String name : object.fieldNames()) {
      if (!known.contains(name)) {
        throw ApiError.invalid("unknown field " + quoted(name) + "; known fields: " + known);
      }
    }
    return new JsonFields(object);
  }

  /** {@code {}}, what most grabs send: no decoder and no parser for it. */
  private static boolean isEmptyObject(Buffer body) {
    return body.length() == 2 && body.getByte(0) == '{' && body.getByte(1) == '}';
  }

  private static String utf8(Buffer body) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(body.getBytes()))
          .toString();
    } catch (CharacterCodingException e) {
      throw ApiError.invalid("the body is not valid UTF-8");
    }
  }

  private static JsonObject parseObject(String text) {
    try (JsonParser parser = FACTORY.createParser(text)) {
      JsonToken first = parser.nextToken();
      if (first != JsonToken.START_OBJECT) {
        throw ApiError.invalid("the body must be a JSON object");
      }
      JsonObject object = object(parser);
      if (parser.nextToken() != null) {
        throw ApiError.invalid("the body must be one JSON object, with nothing after it");
      }
      return object;
    } catch (JsonProcessingException e) {
      throw ApiError.invalid("the body is not valid JSON");
    } catch (IOException e) {
      throw new IllegalStateException("reading a string cannot fail", e);
    }
  }

  /** Reads the members of an object whose START_OBJECT was just read. */
  private static JsonObject object(JsonParser parser) throws IOException {
    var members = new LinkedHashMap<String, Object>();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String name = text(parser.currentName(), "a field name");
      Object value = value(parser, parser.nextToken(), name);
      if (members.containsKey(name)) {
        throw ApiError.invalid("field " + quoted(name) + " appears more than once");
      }
      members.put(name, value);
    }
    return new JsonObject(members);
  }

  private static Object value(JsonParser parser, JsonToken token, String field) throws IOException {
    return switch (token) {
      case START_OBJECT -> object(parser);
      case START_ARRAY -> {
        var elements = new ArrayList<Object>();
        for (JsonToken next = parser.nextToken();
            next != JsonToken.END_ARRAY;
            next = parser.nextToken()) {
          elements.add(value(parser, next, field));
        }
        yield new JsonArray(elements);
      }
      case VALUE_STRING -> text(parser.getText(), quoted(field));
      // A fraction or an exponent is kept as a Double, which every integer reader refuses as
      // mistyped.
      case VALUE_NUMBER_INT -> integerLiteral(parser);
      case VALUE_NUMBER_FLOAT -> parser.getDoubleValue();
      case VALUE_TRUE -> Boolean.TRUE;
      case VALUE_FALSE -> Boolean.FALSE;
      case VALUE_NULL -> null;
      default -> throw ApiError.invalid("the body is not valid JSON");
    };
  }

  /**
   * Integer, Long or BigInteger, as small as the literal allows. A literal longer than any long is
   * not converted (a BigInteger of thousands of digits costs time quadratic in their number): every
   * integer reader refuses any BigInteger as out of range by its sign, so its sign is all it keeps.
   */
  private static Object integerLiteral(JsonParser parser) throws IOException {
    if (parser.getTextLength() <= LONGEST_LONG_LITERAL) {
      return parser.getNumberValue();
    }
    boolean negative = parser.getTextCharacters()[parser.getTextOffset()] == '-';
    return negative ? BEYOND_LONG.negate() : BEYOND_LONG;
  }

  /** Returns {@code text} if it holds no U+0000 and no unpaired surrogate ({@link Text}). */
  private static String text(String text, String what) {
    Text.fault(text)
        .ifPresent(
            fault -> {
              throw ApiError.invalid(what + " " + fault);
            });
    return text;
  }

  /** A field name for a message, cut between code points so that it stays valid Unicode. */
  private static String quoted(String name) {
    if (name.codePointCount(0, name.length()) <= QUOTED_NAME_MAX) {
      return "'" + name + "'";
    }
    return "'" + name.substring(0, name.offsetByCodePoints(0, QUOTED_NAME_MAX)) + "...'";
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
