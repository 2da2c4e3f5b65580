"""Registration, token login and logout (docs/api.md "Authentication and roles": /auth/register/,
/auth/token/)."""

from datetime import date
from typing import Any

from django.contrib.auth import authenticate, get_user_model, password_validation
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from accounts import services, usernames
from accounts.authentication import TokenAuthentication
from api.fields import StrictCharField
from api.schema import raises
from ledger.selectors import welcome_chips

EARLIEST_BIRTH_YEAR = 1900


class AuthThrottle(AnonRateThrottle):
    scope = "auth"


class RegisterInputSerializer(serializers.Serializer[Any]):
    username = StrictCharField(
        max_length=64,
        help_text="3 to 32 letters or digits of any alphabet, or `_ . -`, once normalised (NFKC), which is how "
        "it is stored; unique whatever its case. Refused with their own codes (400): a name mixing look-alike "
        "letters of several alphabets (`username.confusable`), one reading the same as a registered one "
        "(`username.lookalike`, Unicode TS #39's skeleton), one holding characters that show nothing "
        "(`username.invisible`), one reading as a guest's or a bot's, `Guest…` or `Bot…` in any case or "
        "separator (`username.reserved`).",
    )
    password = StrictCharField(write_only=True, max_length=128)
    date_of_birth = serializers.DateField(
        input_formats=["iso-8601"],
        help_text="`YYYY-MM-DD`. Stored; a player under 18 (in the site's time zone) is refused with "
        "`player.underage` (400), a date in the future or before 1900 with `request.invalid`.",
    )

    def validate_date_of_birth(self, value: date) -> date:
        if value > timezone.localdate() or value.year < EARLIEST_BIRTH_YEAR:
            raise serializers.ValidationError(_("Enter your real date of birth."))
        return value

    def validate_username(self, value: str) -> str:
        services.refuse_invisible(
            value
        )  # its own code, before "malformed" (a zero-width space is not a letter)
        username = usernames.normalise(value)
        if not usernames.is_well_formed(username):
            raise serializers.ValidationError(str(services.USERNAME_MALFORMED))
        return username

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        user = get_user_model()(username=attrs["username"])
        password_validation.validate_password(attrs["password"], user)
        return attrs


class RegisterOutputSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(help_text="The name as stored (normalised): sign in with it.")
    welcome_chips = serializers.IntegerField(
        help_text="The house's welcome chips posted to the new wallet (0 when the site gives none)."
    )


class TokenInputSerializer(serializers.Serializer[Any]):
    username = StrictCharField(max_length=150)
    password = StrictCharField(write_only=True, max_length=128, trim_whitespace=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        # Normalised as registration stored it: the name signs in however the keyboard composed it.
        user = authenticate(
            self.context.get("request"),
            username=usernames.normalise(attrs["username"]),
            password=attrs["password"],
        )
        if user is None:  # wrong credentials, or an inactive user
            raise serializers.ValidationError(
                _("Unable to log in with provided credentials."), code="authorization"
            )
        return {"user": user}


class TokenOutputSerializer(serializers.Serializer[Any]):
    token = serializers.CharField()
    expiry = serializers.DateTimeField(allow_null=True)


class RegisterView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list[type] = []
    throttle_classes = [AuthThrottle]

    @raises(400)
    @extend_schema(request=RegisterInputSerializer, responses={201: RegisterOutputSerializer})
    def post(self, request: Request) -> Response:
        data = RegisterInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = services.register_user(**data.validated_data)
        answer = {"username": user.get_username(), "welcome_chips": welcome_chips(user=user)}
        return Response(RegisterOutputSerializer(answer).data, status=status.HTTP_201_CREATED)


class TokenView(APIView):
    """A new token on every login: one per client, each revocable on its own (logout)."""

    permission_classes = [permissions.AllowAny]
    authentication_classes: list[type] = []
    throttle_classes = [AuthThrottle]

    @extend_schema(request=TokenInputSerializer, responses={200: TokenOutputSerializer})
    def post(self, request: Request) -> Response:
        data = TokenInputSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        instance, token = services.create_token(user=data.validated_data["user"])
        return Response(TokenOutputSerializer({"token": token, "expiry": instance.expiry}).data)


class LogoutView(APIView):
    """Revoke the token this request was made with."""

    authentication_classes = [TokenAuthentication]

    @extend_schema(request=None, responses={204: None})
    def post(self, request: Request) -> Response:
        services.revoke_token(token=request.auth)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LogoutAllView(APIView):
    """Revoke every token of the caller: every device logged out."""

    authentication_classes = [TokenAuthentication]

    @extend_schema(request=None, responses={204: None})
    def post(self, request: Request) -> Response:
        services.revoke_all_tokens(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
