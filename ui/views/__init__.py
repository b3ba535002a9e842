"""One script per page; ui/app.py routes to them with st.navigation."""
