"""The accounts' forms: a guest's name at the table, signing up, a username and password (a
guest's first, or an account's new ones) and turn mails.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password


class DisplayNameField(forms.CharField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=30, min_length=1, strip=True, **kwargs)

    def clean(self, value: Any) -> str:
        value = super().clean(value)
        if value and not any(ch.isalnum() for ch in value):
            raise forms.ValidationError("A display name needs at least one letter or digit.")
        return value


class GuestForm(forms.Form):
    display_name = DisplayNameField(label="Your name at the table")


class SignUpForm(forms.Form):
    username = forms.CharField(max_length=150)
    display_name = DisplayNameField(label="Display name")
    password = forms.CharField(widget=forms.PasswordInput)

    def clean_username(self) -> str:
        name = self.cleaned_data["username"].strip()
        if get_user_model().objects.filter(username__iexact=name).exists():
            raise forms.ValidationError("That username is taken.")
        return name

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("password"):
            user = get_user_model()(username=data.get("username", ""))
            try:
                validate_password(data["password"], user)
            except forms.ValidationError as e:
                self.add_error("password", e)
        return data


class SetPasswordForm(forms.Form):
    """A guest keeps their player and history by choosing a username and password. An account
    that has a password must give it to change either: a session held for a moment (an
    unlocked computer, a stolen cookie) must not be enough to lock the owner out for good."""

    current_password = forms.CharField(
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        label="Current password",
        strip=False,
    )
    username = forms.CharField(max_length=150)
    password = forms.CharField(
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        label="New password",
        strip=False,
    )

    field_order = ["current_password", "username", "password"]

    def __init__(self, user: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        if not user.has_usable_password():  # a guest has no password to give
            del self.fields["current_password"]

    def clean_current_password(self) -> str:
        given = self.cleaned_data["current_password"]
        if not self.user.check_password(given):
            raise forms.ValidationError("That is not your current password.")
        return given

    def clean_username(self) -> str:
        name = self.cleaned_data["username"].strip()
        taken = get_user_model().objects.filter(username__iexact=name).exclude(pk=self.user.pk)
        if taken.exists():
            raise forms.ValidationError("That username is taken.")
        return name

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("password"):
            try:
                validate_password(data["password"], self.user)
            except forms.ValidationError as e:
                self.add_error("password", e)
        return data


class TurnMailForm(forms.Form):
    """A mail when it is your turn in a correspondence game (services/turn_mail.py)."""

    turn_mail = forms.BooleanField(
        required=False, label="Mail me when it is my turn in a correspondence game"
    )
    email = forms.EmailField(required=False, max_length=254, label="E-mail address")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("turn_mail") and not data.get("email"):
            self.add_error("email", "Give the address the mails go to.")
        return data
