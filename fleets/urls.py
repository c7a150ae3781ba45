from django.urls import URLPattern, URLResolver

app_name = "fleets"

urlpatterns: list[URLPattern | URLResolver] = []
