"""Schemas of the subset derived from pydantic models."""

from __future__ import annotations

import datetime
import decimal
import enum
import importlib.util
from collections.abc import Callable
from typing import Any, Literal

import pytest
from pydantic import AnyUrl, BaseModel, Field, SecretStr

from tui import ElicitationQueue, ScriptedResponder
from tui.core.models import FormRequest, Option
from tui.core.schema import (
    FieldSpec,
    SchemaError,
    build_content,
    parse_schema,
    schema_from_model,
    validate_content,
)

if importlib.util.find_spec("email_validator") is not None:
    from pydantic import EmailStr as Email
else:
    from typing import Annotated

    Email = Annotated[str, Field(json_schema_extra={"format": "email"})]


class Color(enum.Enum):
    """A colour the UI can show."""

    RED = "red"
    BLUE = "blue"


class Signup(BaseModel):
    """Tell us about yourself."""

    name: str = Field(min_length=2, max_length=40, description="Your full name")
    age: int = Field(30, ge=0, le=130)
    email: Email
    plan: Literal["free", "pro"] = "free"
    tags: list[Literal["news", "tips", "offers"]] = Field(default=["news"], max_length=2)
    favourite_color: Color = Color.BLUE
    accent: Color | None = None
    nickname: str | None = None
    token: SecretStr = SecretStr("hunter2")
    birthday: datetime.date = datetime.date(2000, 1, 1)
    meeting: datetime.datetime | None = None
    homepage: AnyUrl | None = None
    newsletter: bool = True
    ratio: float = Field(0.5, ge=0, le=1)


def _fields(model: type[BaseModel]) -> dict[str, FieldSpec]:
    return {field.name: field for field in parse_schema(schema_from_model(model)).fields}


def test_model_title_description_and_required() -> None:
    schema = schema_from_model(Signup)
    assert schema["title"] == "Signup"
    assert schema["description"] == "Tell us about yourself."
    assert schema["required"] == ["name", "email"]
    assert "$defs" not in schema


def test_constraints_descriptions_and_defaults() -> None:
    fields = _fields(Signup)
    name, age, ratio = fields["name"], fields["age"], fields["ratio"]
    assert (name.type, name.min_length, name.max_length) == ("string", 2, 40)
    assert name.description == "Your full name"
    assert name.title == "Name"
    assert (age.type, age.minimum, age.maximum, age.default) == ("integer", 0, 130, 30)
    assert (ratio.type, ratio.minimum, ratio.maximum, ratio.default) == ("number", 0, 1, 0.5)
    assert (fields["newsletter"].type, fields["newsletter"].default) == ("boolean", True)


def test_email_date_datetime_and_url_formats() -> None:
    fields = _fields(Signup)
    assert fields["email"].format == "email"
    assert (fields["birthday"].format, fields["birthday"].default) == ("date", "2000-01-01")
    assert fields["meeting"].format == "date-time"
    assert fields["homepage"].format == "uri"


def test_literal_and_list_of_literal_become_options() -> None:
    fields = _fields(Signup)
    plan, tags = fields["plan"], fields["tags"]
    assert (plan.type, plan.default) == ("enum", "free")
    assert [o.value for o in plan.options] == ["free", "pro"]
    assert (tags.type, tags.default, tags.max_items) == ("multi_enum", ["news"], 2)
    assert [o.value for o in tags.options] == ["news", "tips", "offers"]


def test_enum_is_inlined_with_the_field_title() -> None:
    color = _fields(Signup)["favourite_color"]
    assert color.type == "enum"
    assert color.title == "Favourite Color"
    assert color.default == "blue"
    assert color.options == (Option(label="red", value="red"), Option(label="blue", value="blue"))
    assert color.description == "A colour the UI can show."


def test_optional_becomes_not_required_without_a_null_default() -> None:
    class Profile(BaseModel):
        bio: str | None
        accent: Color | None = None

    schema = schema_from_model(Profile)
    assert "required" not in schema
    assert schema["properties"]["bio"] == {"type": "string", "title": "Bio"}
    accent = _fields(Profile)["accent"]
    assert (accent.type, accent.required, accent.default) == ("enum", False, None)


def test_secret_str_is_a_secret_without_its_default() -> None:
    schema = schema_from_model(Signup)
    assert "default" not in schema["properties"]["token"]
    token = _fields(Signup)["token"]
    assert (token.type, token.secret, token.format) == ("string", True, None)


def test_single_value_literal_is_one_option() -> None:
    class Ack(BaseModel):
        answer: Literal["yes"]

    assert [o.value for o in _fields(Ack)["answer"].options] == ["yes"]


def test_integer_gt_lt_become_inclusive_bounds() -> None:
    class Pick(BaseModel):
        count: int = Field(gt=0, lt=10)

    count = _fields(Pick)["count"]
    assert (count.minimum, count.maximum) == (1, 9)


def test_content_of_the_form_validates_the_model() -> None:
    schema = schema_from_model(Signup)
    content, errors = build_content(
        parse_schema(schema), {"name": "Ada", "email": "ada@example.com", "token": "s3cret"}
    )
    assert errors == {}
    validate_content(schema, content)
    signup = Signup.model_validate(content)
    assert signup.favourite_color is Color.BLUE
    assert signup.token.get_secret_value() == "s3cret"


class Address(BaseModel):
    street: str


class WithAddress(BaseModel):
    address: Address


class WithDict(BaseModel):
    labels: dict[str, str]


class WithNumbers(BaseModel):
    lucky: list[int]


class WithUnion(BaseModel):
    either: int | str


class WithTime(BaseModel):
    alarm: datetime.time


class WithIntLiteral(BaseModel):
    level: Literal[1, 2, 3]


class WithPattern(BaseModel):
    code: str = Field(pattern=r"^[A-Z]{3}$")


class WithFloatGt(BaseModel):
    weight: float = Field(gt=0)


REFUSED: list[Any] = [
    pytest.param(
        WithAddress, "property 'address': nested objects are not supported", id="nested model"
    ),
    pytest.param(WithDict, "property 'labels': nested objects are not supported", id="dict"),
    pytest.param(
        WithNumbers,
        "property 'lucky': arrays are only supported as a multi-select of string options",
        id="list of ints",
    ),
    pytest.param(
        WithUnion, "property 'either': unions are not supported (anyOf with 2 types)", id="union"
    ),
    pytest.param(WithTime, "property 'alarm': unknown format 'time'", id="time"),
    pytest.param(
        WithIntLiteral,
        "property 'level': keyword 'enum' is not supported for integer",
        id="integer literal",
    ),
    pytest.param(WithPattern, "property 'code': keyword 'pattern' is not supported", id="pattern"),
    pytest.param(
        WithFloatGt,
        "property 'weight': gt/lt bounds are only supported on integers (use ge/le)",
        id="float gt",
    ),
]


@pytest.mark.parametrize(("model", "message"), REFUSED)
def test_refused_model_names_the_field(model: type[BaseModel], message: str) -> None:
    with pytest.raises(SchemaError) as caught:
        schema_from_model(model)
    assert message in str(caught.value)


class WithCallable(BaseModel):
    on_done: Callable[[], None]


def test_a_field_no_json_schema_describes_is_refused_as_outside_the_subset() -> None:
    # It was pydantic's own PydanticInvalidForJsonSchema, not the SchemaError promised.
    with pytest.raises(SchemaError, match="model WithCallable: Cannot generate a JsonSchema"):
        FormRequest.from_model(WithCallable, message="m")
    with pytest.raises(TypeError, match="a form is made from a pydantic model class, not"):
        FormRequest.from_model(int, message="m")  # type: ignore[arg-type]


class Login(BaseModel):
    user: str
    token: str = Field(json_schema_extra={"format": "password"})


def test_a_field_typed_masked_that_is_no_secret_str_is_refused() -> None:
    """Typed masked, it came back a `str`: `to_llm_text()` and a repr showed it in clear."""
    with pytest.raises(SchemaError) as caught:
        FormRequest.from_model(Login, message="Login?")
    assert str(caught.value) == (
        "model Login: field 'token' is typed masked (a password) but is no SecretStr: declare"
        " it SecretStr, or its value reaches the agent in clear"
    )


class Keyed(BaseModel):
    user: str
    token: SecretStr
    pin: SecretStr | None = None


def test_a_model_given_as_the_answer_keeps_its_secrets() -> None:
    # Checked through its JSON form, a SecretStr became its mask, '**********'.
    request = FormRequest.from_model(Keyed, message="Keys?")
    answer = Keyed(user="ada", token=SecretStr("s3cret-value"), pin=SecretStr("4321"))

    checked = request.check_content(answer)

    assert isinstance(checked, Keyed)
    assert checked.token.get_secret_value() == "s3cret-value"
    assert checked.pin is not None and checked.pin.get_secret_value() == "4321"


class Aliased(BaseModel):
    name: str = "n"
    replicas: int | None = Field(validation_alias="count")


def test_an_optional_field_named_by_its_validation_alias_may_be_left_empty() -> None:
    # The form named it "count"; left empty, it was filled in as "replicas": "Field required".
    request = FormRequest.from_model(Aliased, message="m")

    assert request.default_content() == Aliased(name="n", count=None)
    assert request.check_content({"count": 3}) == Aliased(name="n", count=3)


def test_a_model_the_form_gave_passes_the_form_s_own_check_as_it_is() -> None:
    # A dialog's answer is checked as any answer is: the form's model failed the form's own
    # check, a field left empty being None against its type, and one named by its alias
    # being named by the model's name for it.
    class Profile(BaseModel):
        name: str
        bio: str | None

    for request, answer in (
        (FormRequest.from_model(Aliased, message="m"), {}),
        (FormRequest.from_model(Aliased, message="m"), {"count": 3}),
        (FormRequest.from_model(Profile, message="m"), {"name": "Ada"}),
        (FormRequest.from_model(Keyed, message="m"), {"user": "ada", "token": "s3cret"}),
    ):
        given = request.check_content(answer)
        assert request.check_content(given) == given


class Named(BaseModel):
    name: str = Field(alias="fullName")
    replicas: int = Field(validation_alias="count")
    token: SecretStr


def test_the_model_is_told_the_answer_under_the_names_the_form_asked_with() -> None:
    # It was told {"name":"Ada","replicas":3,...}: names the form never asked with.
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Who?": {"fullName": "Ada", "count": 3, "token": "canary-8"}})
    result = queue.ask_form(Named, message="Who?")
    assert result.content == Named(fullName="Ada", count=3, token=SecretStr("canary-8"))
    assert result.to_llm_text() == (
        'The user answered: {"fullName":"Ada","count":3,"token":"**********"}'
    )


class Priced(BaseModel):
    price: decimal.Decimal = Field(ge=0, le=100)
    tip: decimal.Decimal = decimal.Decimal("1.5")
    discount: decimal.Decimal | None = None


def test_a_decimal_is_asked_as_a_number_and_answered_as_a_decimal() -> None:
    # Refused "unions are not supported (anyOf with 2 types)": pydantic's schema of a Decimal
    # reads a number or a string, which named neither the field's type nor what to do.
    fields = _fields(Priced)
    assert [(f.type, f.minimum, f.maximum, f.default) for f in fields.values()] == [
        ("number", 0, 100, None),
        ("number", None, None, 1.5),
        ("number", None, None, None),
    ]
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Price?": {"price": 9.99}})
    result = queue.ask_form(Priced, message="Price?")
    assert result.content == Priced(price=decimal.Decimal("9.99"), tip=decimal.Decimal("1.5"))
